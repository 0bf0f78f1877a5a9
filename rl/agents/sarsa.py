"""SARSA (Rummery and Niranjan, 1994) from replayed experience, as ChainerRL 0.8 builds it."""
from typing import Any

import numpy
from kusari import backend
from kusari.rl.action_value import ActionValue
from kusari.rl.agents.dqn import DQN


class SARSA(DQN):
    """DQN that learns the value of its behaviour policy (the explorer's) instead of the optimal one.

    The next state is valued at the action the explorer would take there now,
    ``Q_target(s', explorer(t, argmax_a Q_target(s', a)))``, drawn at each update for each
    experience (ChainerRL's off-policy SARSA: the replayed ``next_action`` is not used, so the
    buffer stores none). With a greedy explorer this is DQN. Same arguments and statistics as
    :class:`~kusari.rl.agents.dqn.DQN`.
    """

    def _next_state_value(self, exp_batch: dict[str, Any], target_next: ActionValue):
        """``Q_target(s', a')`` with ``a'`` chosen by the explorer at step ``t``, shape (B,)."""
        greedy = backend.to_cpu(target_next.greedy_actions.array)
        explorer, t = self.explorer, self.t
        actions = numpy.asarray([explorer.select_action(t, lambda i=i: greedy[i],
                                                        action_value=target_next[i:i + 1])
                                 for i in range(len(greedy))], greedy.dtype)
        return target_next.evaluate_actions(backend.to_device(self.device, actions)).array
