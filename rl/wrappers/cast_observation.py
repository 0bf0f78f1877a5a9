"""CastObservation / CastObservationToFloat32: cast every observation to one dtype."""
from typing import Any

import gymnasium
import numpy


class CastObservation(gymnasium.ObservationWrapper):
    """Casts observations (NumPy arrays) to ``dtype``; a Box observation space is cast too.

    Parameters
    ----------
    env : gymnasium.Env
    dtype : numpy dtype or its name

    Attributes
    ----------
    original_observation : the last observation before the cast.
    """

    def __init__(self, env: gymnasium.Env, dtype: Any):
        super().__init__(env)
        self.dtype = numpy.dtype(dtype)
        self.original_observation = None
        space = env.observation_space
        if isinstance(space, gymnasium.spaces.Box):
            self.observation_space = gymnasium.spaces.Box(
                space.low.astype(self.dtype), space.high.astype(self.dtype), dtype=self.dtype)

    def observation(self, observation: Any) -> numpy.ndarray:
        self.original_observation = observation
        return numpy.asarray(observation).astype(self.dtype, copy=False)


class CastObservationToFloat32(CastObservation):
    """Casts observations to float32, the dtype networks take (see :class:`CastObservation`)."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env, numpy.float32)
