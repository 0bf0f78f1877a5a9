"""Advantage learning (Bellemare et al., 2016, http://arxiv.org/abs/1512.04860)."""
from typing import Any

import kusari
from kusari.rl.action_value import ActionValue
from kusari.rl.agents.dqn import DQN, eval_forward


class AL(DQN):
    """DQN with the advantage learning target ``T Q + alpha * A(s, a)``.

    ``T Q`` is DQN's target and ``A(s, a) = Q_target(s, a) - max_b Q_target(s, b)``: the values of
    actions other than the greedy one are pushed down, which widens the action gap and makes the
    greedy policy less sensitive to errors in Q. The greedy values still converge to ``V*``.

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
        """``T Q + alpha * (the advantage term)``, shape (B,)."""
        target_cur = eval_forward(self.target_model, exp_batch["state"])
        target_next = eval_forward(self.target_model, exp_batch["next_state"])
        t_q = self._bellman_target(exp_batch, target_next)
        with kusari.no_backprop_mode():
            advantage = self._advantage_term(exp_batch["action"], target_cur, target_next)
        return t_q + self.alpha * advantage

    def _advantage_term(self, actions, target_cur: ActionValue, target_next: ActionValue):
        """``A_target(s, a)``, shape (B,), from the target network's values of s and s'."""
        return target_cur.compute_advantage(actions).array
