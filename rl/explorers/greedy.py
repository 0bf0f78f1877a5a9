"""The explorer that does not explore."""
from kusari.rl.explorer import Explorer


class Greedy(Explorer):
    """Always take the greedy action."""

    def select_action(self, t, greedy_action_func, action_value=None):
        return greedy_action_func()

    def __repr__(self):
        return "Greedy()"
