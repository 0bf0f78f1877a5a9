"""Step hooks: callables ``hook(env, agent, step)`` that the training loops call after every step."""
from abc import ABCMeta, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy


class StepHook(metaclass=ABCMeta):
    """The interface of a step hook (any callable taking ``(env, agent, step)`` works as well)."""

    @abstractmethod
    def __call__(self, env: Any, agent: Any, step: int) -> None:
        """Called after step ``step`` (counted from 1, including ``step_offset``)."""


class LinearInterpolationHook(StepHook):
    """Sets a value that moves linearly from ``start_value`` at step 1 to ``stop_value`` at ``total_steps``.

    For example a learning-rate decay, ``setter=lambda env, agent, value: setattr(agent.optimizer,
    'lr', value)``; agents re-read such hyperparameters at every update. Past ``total_steps`` the
    value stays ``stop_value``.

    Parameters
    ----------
    total_steps : int
    start_value, stop_value : float
    setter : callable ``(env, agent, value) -> None``
    """

    def __init__(self, total_steps: int, start_value: float, stop_value: float,
                 setter: Callable[[Any, Any, float], None]):
        if not total_steps >= 1:
            raise ValueError(f"LinearInterpolationHook: total_steps must be >= 1, got {total_steps!r}")
        if not callable(setter):
            raise TypeError(f"LinearInterpolationHook: setter must be callable, got {type(setter).__name__}")
        self.total_steps = total_steps
        self.start_value = start_value
        self.stop_value = stop_value
        self.setter = setter

    def __call__(self, env: Any, agent: Any, step: int) -> None:
        value = numpy.interp(step, [1, self.total_steps], [self.start_value, self.stop_value])
        self.setter(env, agent, float(value))
