"""Epsilon-greedy exploration with a constant, linearly or exponentially decaying epsilon."""
from logging import Logger, getLogger
from typing import Any, Callable, Tuple

import numpy

from kusari.rl.explorer import Explorer


def select_action_epsilon_greedily(epsilon: float, random_action_func: Callable[[], Any],
                                   greedy_action_func: Callable[[], Any]) -> Tuple[Any, bool]:
    """With probability ``epsilon`` a random action, else the greedy one (only that one is computed).

    Parameters
    ----------
    epsilon : float
        Probability of the random action, in [0, 1].
    random_action_func, greedy_action_func : callable
        No arguments; return an action.

    Returns
    -------
    tuple
        ``(action, greedy)``: ``greedy`` is True when the greedy action was taken.
    """
    if numpy.random.rand() < epsilon:
        return random_action_func(), False
    return greedy_action_func(), True


def _check_probability(owner: str, name: str, value: float) -> None:
    if not 0 <= value <= 1:
        raise ValueError(f"{owner}: {name} must be in [0, 1], got {value!r}")


class _EpsilonGreedy(Explorer):
    """Epsilon-greedy with the schedule ``compute_epsilon(t)`` of a subclass."""

    def __init__(self, random_action_func, logger):
        if not callable(random_action_func):
            raise TypeError(f"{type(self).__name__}: random_action_func must be callable, "
                            f"got {type(random_action_func).__name__}")
        self.random_action_func = random_action_func
        self.logger = logger

    def compute_epsilon(self, t: int) -> float:
        return self.epsilon

    def select_action(self, t, greedy_action_func, action_value=None):
        self.epsilon = self.compute_epsilon(t)
        a, greedy = select_action_epsilon_greedily(self.epsilon, self.random_action_func,
                                                   greedy_action_func)
        self.logger.debug("t:%s a:%s %s", t, a, "greedy" if greedy else "non-greedy")
        return a

    def __repr__(self):
        return f"{type(self).__name__}(epsilon={self.epsilon})"


class ConstantEpsilonGreedy(_EpsilonGreedy):
    """Epsilon-greedy with a fixed epsilon.

    Parameters
    ----------
    epsilon : float
        Probability of a random action, in [0, 1].
    random_action_func : callable
        No arguments; returns a random action.
    logger : logging.Logger
        Receives a debug line per action.
    """

    def __init__(self, epsilon: float, random_action_func: Callable[[], Any],
                 logger: Logger = getLogger(__name__)):
        _check_probability("ConstantEpsilonGreedy", "epsilon", epsilon)
        super().__init__(random_action_func, logger)
        self.epsilon = epsilon


class LinearDecayEpsilonGreedy(_EpsilonGreedy):
    """Epsilon-greedy whose epsilon falls linearly from ``start_epsilon`` to ``end_epsilon``.

    ``epsilon(t) = start + (end - start) * t / decay_steps`` for ``t < decay_steps``, ``end`` after.

    Parameters
    ----------
    start_epsilon, end_epsilon : float
        Epsilon at step 0 and from step ``decay_steps`` on, in [0, 1].
    decay_steps : int
        Length of the decay, >= 0.
    random_action_func : callable
        No arguments; returns a random action.
    logger : logging.Logger
        Receives a debug line per action.
    """

    def __init__(self, start_epsilon: float, end_epsilon: float, decay_steps: int,
                 random_action_func: Callable[[], Any], logger: Logger = getLogger(__name__)):
        _check_probability("LinearDecayEpsilonGreedy", "start_epsilon", start_epsilon)
        _check_probability("LinearDecayEpsilonGreedy", "end_epsilon", end_epsilon)
        if not decay_steps >= 0:
            raise ValueError(f"LinearDecayEpsilonGreedy: decay_steps must be >= 0, got {decay_steps!r}")
        super().__init__(random_action_func, logger)
        self.start_epsilon = start_epsilon
        self.end_epsilon = end_epsilon
        self.decay_steps = decay_steps
        self.epsilon = start_epsilon

    def compute_epsilon(self, t: int) -> float:
        if t >= self.decay_steps:
            return self.end_epsilon
        return self.start_epsilon + (self.end_epsilon - self.start_epsilon) * (t / self.decay_steps)


class ExponentialDecayEpsilonGreedy(_EpsilonGreedy):
    """Epsilon-greedy with ``epsilon(t) = max(start_epsilon * decay**t, end_epsilon)``.

    Parameters
    ----------
    start_epsilon, end_epsilon : float
        Epsilon at step 0 and its floor, in [0, 1].
    decay : float
        Factor per step, in (0, 1).
    random_action_func : callable
        No arguments; returns a random action.
    logger : logging.Logger
        Receives a debug line per action.
    """

    def __init__(self, start_epsilon: float, end_epsilon: float, decay: float,
                 random_action_func: Callable[[], Any], logger: Logger = getLogger(__name__)):
        _check_probability("ExponentialDecayEpsilonGreedy", "start_epsilon", start_epsilon)
        _check_probability("ExponentialDecayEpsilonGreedy", "end_epsilon", end_epsilon)
        if not 0 < decay < 1:
            raise ValueError(f"ExponentialDecayEpsilonGreedy: decay must be in (0, 1), got {decay!r}")
        super().__init__(random_action_func, logger)
        self.start_epsilon = start_epsilon
        self.end_epsilon = end_epsilon
        self.decay = decay
        self.epsilon = start_epsilon

    def compute_epsilon(self, t: int) -> float:
        return max(self.start_epsilon * self.decay ** t, self.end_epsilon)
