"""Persistent advantage learning (Bellemare et al., 2016, http://arxiv.org/abs/1512.04860)."""
from typing import Any

import kusari
from kusari.rl.agents.dqn import DQN, eval_forward


class PAL(DQN):
    """DQN with the persistent advantage learning target.

    The target is ``T Q + alpha * max(A(s, a), A(s', a))``, where ``T Q`` is DQN's target and
    ``A(x, a) = Q_target(x, a) - max_b Q_target(x, b)``: it widens the gap between the best action
    and the others, which makes the greedy policy less sensitive to errors in Q.

    Parameters
    ----------
    *args, **kwargs
        As :class:`~kusari.rl.agents.dqn.DQN`.
    alpha : float
        Weight of the advantage term, in [0, 1) (convergence is guaranteed there); re-read at
        every update.
    """

    def __init__(self, *args, alpha: float = 0.9, **kwargs):
        if not 0 <= alpha < 1:
            raise ValueError(f"{type(self).__name__}: alpha must be in [0, 1), got {alpha!r}")
        self.alpha = alpha
        super().__init__(*args, **kwargs)

    def _compute_target_values(self, exp_batch: dict[str, Any]):
        """``T Q + alpha * max(A(s, a), A(s', a))`` with the target network's advantages, shape (B,)."""
        actions = exp_batch["action"]
        target_cur = eval_forward(self.target_model, exp_batch["state"])
        target_next = eval_forward(self.target_model, exp_batch["next_state"])
        t_q = self._bellman_target(exp_batch, target_next)
        with kusari.no_backprop_mode():
            cur_advantage = target_cur.compute_advantage(actions).array
            next_advantage = target_next.compute_advantage(actions).array
        xp = kusari.backend.get_array_module(t_q)
        return t_q + self.alpha * xp.maximum(cur_advantage, next_advantage)
