"""RandomizeAction: replace a fraction of the agent's actions with random ones."""
from typing import Any

import gymnasium
import numpy


class RandomizeAction(gymnasium.ActionWrapper):
    """With probability ``random_fraction``, a uniformly random action replaces the agent's.

    Used to make evaluation stochastic (Atari's epsilon-greedy evaluation); for exploration in
    training use an explorer. Only Discrete action spaces are supported.

    The wrapper draws from its own ``numpy.random.RandomState``, seeded at construction from
    NumPy's global RandomState (so ``kusari.rl.utils.set_random_seed`` repeats it) and reseeded by
    ``reset(seed=s)`` (so a vector env's ``seed`` repeats it in worker processes).

    Parameters
    ----------
    env : gymnasium.Env
    random_fraction : float in [0, 1]
    """

    def __init__(self, env: gymnasium.Env, random_fraction: float):
        super().__init__(env)
        if not 0 <= random_fraction <= 1:
            raise ValueError(f"RandomizeAction: random_fraction must be in [0, 1], got {random_fraction!r}")
        if not isinstance(env.action_space, gymnasium.spaces.Discrete):
            raise TypeError("RandomizeAction: only a Discrete action space is supported, got "
                            f"{env.action_space}")
        self._random_fraction = random_fraction
        self._random = numpy.random.RandomState(numpy.random.randint(2 ** 31))

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:   # RandomState takes seeds below 2**32; larger ones (gymnasium allows any) hashed
            self._random.seed(seed if 0 <= seed < 2 ** 32 else numpy.random.SeedSequence(seed).generate_state(4))
        return super().reset(seed=seed, options=options)

    def action(self, action: Any) -> Any:
        if self._random.rand() < self._random_fraction:
            space = self.env.action_space
            return space.start + self._random.randint(space.n)
        return action
