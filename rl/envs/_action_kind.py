"""The action-kind check shared by the training loops and the vector envs."""
import numbers
from typing import Any

import numpy
from gymnasium import spaces


def check_action_kind(env: Any, action: Any) -> None:
    """Refuse an integer action for a continuous (Box) action space, and a non-integer one for a
    Discrete space: the mark of a discrete-action agent in a continuous environment or the reverse."""
    space = getattr(env, "action_space", None)
    if isinstance(space, spaces.Discrete):
        if isinstance(action, numbers.Integral) or (
                isinstance(action, numpy.ndarray) and action.ndim == 0 and action.dtype.kind in "iu"):
            return
        raise TypeError(f"{_env_name(env)}: its action space {space} takes integer actions, but the agent "
                        f"returned {action!r} ({type(action).__name__}); a continuous-action agent "
                        "cannot act in a discrete action space")
    if isinstance(space, spaces.Box):
        array = numpy.asarray(action)
        if array.dtype.kind == "f" and array.shape == space.shape:
            return
        raise TypeError(f"{_env_name(env)}: its action space {space} takes float arrays of shape "
                        f"{space.shape}, but the agent returned {action!r} (dtype {array.dtype}, shape "
                        f"{array.shape}); a discrete-action agent cannot act in a continuous action space")


def _env_name(env: Any) -> str:
    spec = getattr(env, "spec", None)
    return getattr(spec, "id", None) or type(env).__name__
