"""Double DQN (van Hasselt et al., 2016, http://arxiv.org/abs/1509.06461)."""
from typing import Any

from kusari.rl.action_value import ActionValue
from kusari.rl.agents.dqn import DQN, eval_forward


class DoubleDQN(DQN):
    """DQN whose target values the next state's greedy action of the *model* with the target network.

    Choosing the action with one network and valuing it with the other removes Q-learning's
    overestimation bias. Same arguments and statistics as :class:`~kusari.rl.agents.dqn.DQN`.
    """

    def _next_state_value(self, exp_batch: dict[str, Any], target_next: ActionValue):
        """``Q_target(s', argmax_a Q(s', a))``, shape (B,)."""
        greedy = eval_forward(self.model, exp_batch["next_state"]).greedy_actions
        return target_next.evaluate_actions(greedy).array
