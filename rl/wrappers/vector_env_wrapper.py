"""VectorEnvWrapper: the base of wrappers around a kusari.rl.envs.VectorEnv (gymnasium.Wrapper's analog)."""
from collections.abc import Sequence
from typing import Any

from kusari.rl.envs import VectorEnv


class VectorEnvWrapper(VectorEnv):
    """Forwards everything to ``env``; subclasses override ``reset``/``step``.

    Parameters
    ----------
    env : VectorEnv
    """

    def __init__(self, env: VectorEnv):
        if not isinstance(env, VectorEnv):
            raise TypeError(f"{type(self).__name__}: env must be a kusari.rl.envs.VectorEnv, got "
                            f"{type(env).__name__}")
        self.env = env
        self.action_space = env.action_space
        self.observation_space = env.observation_space
        self.spec = env.spec

    @property
    def num_envs(self) -> int:
        return self.env.num_envs

    @property
    def closed(self) -> bool:
        return self.env.closed

    def reset(self, mask: Sequence[bool] | None = None):
        return self.env.reset(mask)

    def step(self, actions: Sequence[Any]):
        return self.env.step(actions)

    def seed(self, seeds=None) -> None:
        self.env.seed(seeds)

    def close(self) -> None:
        self.env.close()

    @property
    def unwrapped(self) -> VectorEnv:
        return self.env.unwrapped
