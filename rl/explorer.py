"""The explorer interface: how an agent turns its greedy action into the action it takes."""
from abc import ABCMeta, abstractmethod
from typing import Any, Callable


class Explorer(metaclass=ABCMeta):
    """Base of explorers (PFRL's interface)."""

    @abstractmethod
    def select_action(self, t: int, greedy_action_func: Callable[[], Any], action_value=None) -> Any:
        """Choose the action to take at step ``t``.

        Parameters
        ----------
        t : int
            The agent's current time step (schedules read it).
        greedy_action_func : callable
            No arguments; returns the greedy action. Explorers call it only when they need it.
        action_value : ActionValue, optional
            The agent's action values, for explorers that use them.

        Returns
        -------
        The action.
        """
