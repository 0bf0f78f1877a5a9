"""NormalizeActionSpace: present a bounded Box action space as [-1, 1]^n."""
import gymnasium
import numpy


class NormalizeActionSpace(gymnasium.ActionWrapper):
    """The agent acts in ``[-1, 1]`` per dimension; actions are mapped linearly onto ``[low, high]``.

    The new space keeps the original shape and dtype. Actions outside ``[-1, 1]`` are mapped
    linearly too (not clipped), as in PFRL.

    Parameters
    ----------
    env : gymnasium.Env
        Its action space must be a Box with finite bounds.
    """

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        space = env.action_space
        if not isinstance(space, gymnasium.spaces.Box):
            raise TypeError(f"NormalizeActionSpace: the action space must be a Box, got {space}")
        if not (numpy.all(numpy.isfinite(space.low)) and numpy.all(numpy.isfinite(space.high))):
            raise ValueError(f"NormalizeActionSpace: the action space {space} has infinite bounds")
        self._low = space.low
        self._half_range = (space.high - space.low) / 2
        self.action_space = gymnasium.spaces.Box(-1, 1, shape=space.shape, dtype=space.dtype)

    def action(self, action: numpy.ndarray) -> numpy.ndarray:
        action = numpy.asarray(action)
        # in the env's dtype: a float32 space stays float32 even for a float64 agent action
        return ((action + 1) * self._half_range + self._low).astype(self._low.dtype, copy=False)
