"""tile: repeat a whole array along each axis."""
import numbers

from kusari import backend
from kusari.function_node import FunctionNode


class Tile(FunctionNode):
    def __init__(self, reps):
        self._reps = reps

    def forward(self, inputs):
        x = inputs[0]
        return backend.get_array_module(x).tile(x, self._reps),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.sum import sum as _sum
        shape = self.inputs[0].shape
        ndim = max(len(shape), len(self._reps))
        reps = (1,) * (ndim - len(self._reps)) + self._reps
        padded = (1,) * (ndim - len(shape)) + tuple(shape)
        # gy viewed as (r0, s0, r1, s1, ...): summing the r axes folds the tiles together
        interleaved = tuple(d for pair in zip(reps, padded) for d in pair)
        gx = _sum(reshape(grad_outputs[0], interleaved), axis=tuple(range(0, 2 * ndim, 2)))
        return reshape(gx, shape),


def tile(x, reps):
    """``x`` repeated ``reps`` times along each axis (``numpy.tile``).

    ``reps``: an int or a tuple of non-negative ints; shorter of ``reps`` and ``x.shape`` is
    padded with leading 1s. Returns a Variable of shape ``reps[i] * x.shape[i]``.
    """
    reps_t = (reps,) if isinstance(reps, numbers.Integral) else tuple(reps)
    if any(not isinstance(r, numbers.Integral) or r < 0 for r in reps_t):
        raise ValueError(f"tile: reps={reps!r} must be a non-negative int or a tuple of them")
    return Tile(tuple(int(r) for r in reps_t)).apply((x,))[0]
