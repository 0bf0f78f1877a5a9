"""Checked gymnasium calls for the training and evaluation loops (old gym's 4-tuple API is refused)."""
import numbers
from typing import Any

from kusari.rl.envs._action_kind import check_action_kind


def reset_env(env: Any) -> Any:
    """``env.reset()``'s observation."""
    result = env.reset()
    if not (isinstance(result, tuple) and len(result) == 2):
        raise TypeError(f"{type(env).__name__}.reset() must return gymnasium's (obs, info), got "
                        f"{type(result).__name__}; wrap old gym envs for gymnasium's API")
    return result[0]


def step_env(env: Any, action: Any) -> tuple[Any, float, bool, bool]:
    """``env.step(action)`` as ``(obs, reward, terminated, truncated)``, after :func:`check_action_kind`."""
    check_action_kind(env, action)
    result = env.step(action)
    if not (isinstance(result, tuple) and len(result) == 5):
        raise TypeError(f"{type(env).__name__}.step() must return gymnasium's (obs, reward, "
                        f"terminated, truncated, info), got {type(result).__name__} of length "
                        f"{len(result) if isinstance(result, tuple) else '?'}")
    return result[0], result[1], bool(result[2]), bool(result[3])


def check_episode_budget(n_steps: int | None, n_episodes: int | None, caller: str) -> None:
    """Exactly one of the evaluation budgets is given, as a positive int."""
    if (n_steps is None) == (n_episodes is None):
        raise ValueError(f"{caller}: give exactly one of n_steps and n_episodes (the other None), got "
                         f"n_steps={n_steps!r}, n_episodes={n_episodes!r}")
    budget = n_steps if n_episodes is None else n_episodes
    if isinstance(budget, bool) or not (isinstance(budget, numbers.Integral) and budget >= 1):
        raise ValueError(f"{caller}: the evaluation budget must be a positive int, got "
                         f"n_steps={n_steps!r}, n_episodes={n_episodes!r}")


def check_positive(value: Any, name: str, caller: str, optional: bool = False) -> None:
    """``value`` is a positive int (or None when ``optional``)."""
    if optional and value is None:
        return
    if isinstance(value, bool) or not (isinstance(value, numbers.Integral) and value >= 1):
        raise ValueError(f"{caller}: {name} must be a positive int{' or None' if optional else ''}, "
                         f"got {value!r}")
