"""permutate: reorder the slices of an array along an axis by a permutation."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.variable import as_array


class Permutate(FunctionNode):
    def __init__(self, indices, axis, inv):
        self._indices = indices
        self._axis = axis
        self._inv = inv

    def forward(self, inputs):
        x = inputs[0]
        if x.ndim == 0:
            raise ValueError("permutate: x must have at least one dimension, got shape ()")
        self._axis = axis = utils.normalize_axis("permutate", self._axis, x.ndim)[0]
        xp = backend.get_array_module(x)
        indices = xp.asarray(self._indices)
        if indices.shape != (x.shape[axis],):
            raise ValueError(f"permutate: indices.shape={indices.shape} does not match "
                             f"x.shape[{axis}]={x.shape[axis]} (x.shape={x.shape})")
        if self._inv:
            indices = xp.argsort(indices)
        return xp.take(x, indices, axis=axis),

    def backward(self, indexes, grad_outputs):
        return Permutate(self._indices, self._axis, not self._inv).apply(grad_outputs)


def permutate(x, indices, axis=0, inv=False):
    """``x`` with its slices along ``axis`` reordered: ``y[..., i, ...] = x[..., indices[i], ...]``.

    ``indices``: a permutation of ``range(x.shape[axis])`` (int array). With ``inv=True`` the
    inverse permutation is applied: ``y[..., indices[i], ...] = x[..., i, ...]``. Same shape as ``x``.
    """
    indices = as_array(indices)
    if indices.dtype.kind not in "iu" or indices.ndim != 1:
        raise TypeError(f"permutate: indices must be a 1-D integer array, got "
                        f"shape={indices.shape}, dtype={indices.dtype}")
    n = len(indices)
    if not numpy.array_equal(numpy.sort(backend.CpuDevice().send(indices)), numpy.arange(n)):
        raise ValueError(f"permutate: indices is not a permutation of range({n})")
    return Permutate(indices, axis, inv).apply((x,))[0]
