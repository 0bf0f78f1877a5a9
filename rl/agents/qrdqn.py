"""QR-DQN (Dabney et al., 2018, https://arxiv.org/abs/1710.10044), sb3-contrib's algorithm with PFRL's interface."""
from typing import Any

import kusari.functions as F
from kusari.rl.action_value import QuantileDiscreteActionValue
from kusari.rl.agents._distributional import (
    DistributionalDQNBase,
    bellman_backup,
    check_action_value,
)
from kusari.rl.agents.dqn import eval_forward
from kusari.rl.functions import quantile_huber_loss


class QRDQN(DistributionalDQNBase):
    """Quantile regression DQN: N fixed quantiles of the return per action, no support to choose.

    The model's quantiles of the action taken, at the levels ``(2 i + 1) / (2 N)``, regress on the
    n-step targets ``R + discount * z_j(s', a*)``, where ``a*`` is the greedy action of the target
    network's mean; the loss of an example is the quantile Huber loss (delta 1) summed over its N
    quantiles and averaged over the targets (sb3-contrib's reduction, and PFRL's for IQN). The
    priorities of prioritized replay are these per-example losses.

    Same arguments and statistics as :class:`~kusari.rl.agents.dqn.DQN`, except that the
    ``q_function`` must return a :class:`~kusari.rl.action_value.QuantileDiscreteActionValue`
    (e.g. ``QuantileFCStateQFunctionWithDiscreteAction``) and ``clip_delta`` is ignored.
    """

    def _losses(self, exp_batch: dict[str, Any]):
        who = type(self).__name__
        av = self.model(exp_batch["state"])
        check_action_value(who, av, QuantileDiscreteActionValue)
        actions = exp_batch["action"]
        y = av.evaluate_actions_as_quantiles(actions)
        n = y.shape[1]
        taus = (2 * y.xp.arange(n, dtype=y.dtype) + 1) / (2 * n)
        target_next = eval_forward(self.target_model, exp_batch["next_state"])
        check_action_value(who, target_next, QuantileDiscreteActionValue)
        next_quantiles = target_next.evaluate_actions_as_quantiles(target_next.greedy_actions).array
        target = bellman_backup(exp_batch, next_quantiles).astype(y.dtype, copy=False)
        losses = F.sum(F.mean(quantile_huber_loss(y, target, taus), axis=2), axis=1)
        return av.evaluate_actions(actions).array, losses, losses.array
