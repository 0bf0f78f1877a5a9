"""VectorFrameStack: FrameStack for a vector env, stacking in the main process."""
from collections import deque
from collections.abc import Sequence
from typing import Any

import numpy

from kusari.rl.envs import VectorEnv
from kusari.rl.wrappers.frame_stack import stack_frames, stacked_box
from kusari.rl.wrappers.vector_env_wrapper import VectorEnvWrapper


class VectorFrameStack(VectorEnvWrapper):
    """Each env's observation is its last ``k`` frames concatenated along ``stack_axis``.

    Stacking here rather than inside each worker sends one frame per step between processes,
    not ``k``. Observations are NumPy arrays; a reset fills all ``k`` slots with the first frame.

    Parameters
    ----------
    env : VectorEnv
        With a Box observation space.
    k : int
        Frames to stack.
    stack_axis : int
        The axis of one env's observation to concatenate along.
    """

    def __init__(self, env: VectorEnv, k: int, stack_axis: int = 0):
        super().__init__(env)
        self.k = k
        self.stack_axis = stack_axis
        self.observation_space = stacked_box(env.observation_space, k, stack_axis, "VectorFrameStack")
        self.frames = [deque(maxlen=k) for _ in range(env.num_envs)]

    def reset(self, mask: Sequence[bool] | None = None):
        batch_obs = self.env.reset(mask)
        keep = numpy.zeros(self.num_envs, dtype=bool) if mask is None else mask
        for kept, frames, obs in zip(keep, self.frames, batch_obs):
            if not kept:
                frames.extend([obs] * self.k)
        return self._stacked()

    def step(self, actions: Sequence[Any]):
        batch_obs, rewards, terminateds, truncateds, infos = self.env.step(actions)
        for frames, obs in zip(self.frames, batch_obs):
            frames.append(obs)
        return self._stacked(), rewards, terminateds, truncateds, infos

    def _stacked(self) -> tuple:
        return tuple(stack_frames(frames, self.stack_axis) for frames in self.frames)
