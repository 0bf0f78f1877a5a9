"""SerialVectorEnv: a VectorEnv that steps its gymnasium environments one after another, in-process."""
from collections.abc import Sequence
from typing import Any

from kusari.rl.envs.vector_env import EnvBatch


class SerialVectorEnv(EnvBatch):
    """Steps ``envs`` in this process, in order; for debugging and for envs too cheap to parallelize.

    An exception raised by an env propagates unchanged. See :mod:`kusari.rl.envs.vector_env` for
    the API (gymnasium's five-tuple ``step``, PFRL's ``reset(mask)``).

    Parameters
    ----------
    envs : sequence of gymnasium.Env
        At least one; ``action_space``, ``observation_space`` and ``spec`` are ``envs[0]``'s.
    """

    def __init__(self, envs: Sequence[Any]):
        if len(envs) == 0:
            raise ValueError("SerialVectorEnv: envs is empty")
        self.envs = list(envs)
        self.action_space = self.envs[0].action_space
        self.observation_space = self.envs[0].observation_space
        self.spec = getattr(self.envs[0], "spec", None)
        self._init_state()

    @property
    def num_envs(self) -> int:
        return len(self.envs)

    def _reset_envs(self, indices: list[int], seeds: list[int | None]) -> list[Any]:
        return [self.envs[i].reset(seed=seed)[0] for i, seed in zip(indices, seeds)]

    def _step_envs(self, actions: Sequence[Any]) -> list[tuple]:
        return [env.step(action) for env, action in zip(self.envs, actions)]

    def _close_envs(self) -> None:
        for env in self.envs:
            env.close()
