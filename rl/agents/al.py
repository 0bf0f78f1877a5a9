"""Advantage learning (Bellemare et al., 2016, http://arxiv.org/abs/1512.04860)."""
from typing import Any

import kusari
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
        """``T Q + alpha * A_target(s, a)``, shape (B,)."""
        t_q = super()._compute_target_values(exp_batch)
        target_cur = eval_forward(self.target_model, exp_batch["state"])
        with kusari.no_backprop_mode():
            advantage = target_cur.compute_advantage(exp_batch["action"]).array
        return t_q + self.alpha * advantage
