"""Persistent advantage learning (Bellemare et al., 2016, http://arxiv.org/abs/1512.04860)."""
import kusari
from kusari.rl.action_value import ActionValue
from kusari.rl.agents.al import AL


class PAL(AL):
    """DQN with the persistent advantage learning target.

    The target is ``T Q + alpha * max(A(s, a), A(s', a))``, where ``T Q`` is DQN's target and
    ``A(x, a) = Q_target(x, a) - max_b Q_target(x, b)``: it widens the gap between the best action
    and the others, which makes the greedy policy less sensitive to errors in Q. Same arguments as
    :class:`~kusari.rl.agents.al.AL` (``alpha`` in [0, 1), re-read at every update).
    """

    def _advantage_term(self, actions, target_cur: ActionValue, target_next: ActionValue):
        """``max(A_target(s, a), A_target(s', a))``, shape (B,)."""
        cur_advantage = target_cur.compute_advantage(actions).array
        next_advantage = target_next.compute_advantage(actions).array
        return kusari.backend.get_array_module(cur_advantage).maximum(cur_advantage, next_advantage)
