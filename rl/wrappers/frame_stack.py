"""FrameStack: observe the last ``k`` frames of one env, concatenated along an axis."""
from collections import deque
from collections.abc import Iterable
from typing import Any

import gymnasium
import numpy


def stacked_box(space: Any, k: int, axis: int, owner: str) -> gymnasium.spaces.Box:
    """The Box space of ``k`` frames of ``space`` concatenated along ``axis``."""
    if not isinstance(space, gymnasium.spaces.Box):
        raise TypeError(f"{owner}: the observation space must be a Box, got {space}")
    if not (isinstance(k, int) and k >= 1):
        raise ValueError(f"{owner}: k must be a positive int, got {k!r}")
    if not -len(space.shape) <= axis < len(space.shape):
        raise ValueError(f"{owner}: stack axis {axis} is out of range for observations of shape "
                         f"{space.shape}")
    return gymnasium.spaces.Box(numpy.repeat(space.low, k, axis=axis),
                                numpy.repeat(space.high, k, axis=axis), dtype=space.dtype)


def stack_frames(frames: Iterable[numpy.ndarray], axis: int) -> numpy.ndarray:
    """The frames concatenated along ``axis`` (a new array, oldest first)."""
    return numpy.concatenate(tuple(frames), axis=axis)


class FrameStack(gymnasium.Wrapper):
    """Observations are the last ``k`` frames concatenated along the channel axis (oldest first).

    After a reset the first frame fills all ``k`` slots. Unlike PFRL, which returns lazy frames,
    observations are plain NumPy arrays (a replay buffer can save them); stacking costs one copy
    per step. gymnasium's ``FrameStackObservation`` stacks on a new axis instead.

    Parameters
    ----------
    env : gymnasium.Env
        With a Box observation space.
    k : int
        Frames to stack.
    channel_order : {'hwc', 'chw'}
        Concatenate along axis 2 ('hwc') or 0 ('chw'; kusari's image layout).
    """

    def __init__(self, env: gymnasium.Env, k: int, channel_order: str = "hwc"):
        super().__init__(env)
        if channel_order not in ("hwc", "chw"):
            raise ValueError(f"FrameStack: channel_order must be 'hwc' or 'chw', got {channel_order!r}")
        self.k = k
        self.stack_axis = {"hwc": 2, "chw": 0}[channel_order]
        self.observation_space = stacked_box(env.observation_space, k, self.stack_axis, "FrameStack")
        self.frames: deque = deque(maxlen=k)

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.frames.extend([obs] * self.k)
        return self._stacked(), info

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.frames.append(obs)
        return self._stacked(), reward, terminated, truncated, info

    def _stacked(self) -> numpy.ndarray:
        """The observation of the current frames (the Atari FrameStack keeps them lazy)."""
        return stack_frames(self.frames, self.stack_axis)
