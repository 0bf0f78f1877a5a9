"""transpose: permute the axes of an array."""
import numpy

from kusari.function_node import FunctionNode


class Transpose(FunctionNode):
    def __init__(self, axes):
        self._axes = axes

    def forward(self, inputs):
        x = inputs[0]
        if self._axes is not None and sorted(a % max(x.ndim, 1) for a in self._axes) != list(range(x.ndim)):
            raise ValueError(f"transpose: axes {self._axes} are not a permutation of the "
                             f"{x.ndim} axes of x (x.shape={x.shape})")
        return x.transpose(self._axes),

    def backward(self, indexes, grad_outputs):
        axes = self._axes
        if axes is None:
            inv = None
        else:
            ndim = len(axes)
            inv = tuple(numpy.argsort([a % ndim for a in axes]))
        return Transpose(inv).apply(grad_outputs)


def transpose(x, axes=None):
    """Permute the axes of ``x`` (reverse them when ``axes`` is None)."""
    return Transpose(None if axes is None else tuple(axes)).apply((x,))[0]
