"""diagonal: extract a diagonal of an array over two of its axes."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


def _axes(x_ndim, axis1, axis2):
    if x_ndim < 2:
        raise ValueError(f"diagonal: x must have at least 2 dimensions, got {x_ndim}")
    a = utils.normalize_axis("diagonal", axis1, x_ndim)[0]
    b = utils.normalize_axis("diagonal", axis2, x_ndim)[0]
    if a == b:
        raise ValueError(f"diagonal: axis1={axis1} and axis2={axis2} refer to the same axis")
    return a, b


class Diagonal(FunctionNode):
    def __init__(self, offset, axis1, axis2):
        self._offset = offset
        self._axis1 = axis1
        self._axis2 = axis2

    def forward(self, inputs):
        x = inputs[0]
        self._axis1, self._axis2 = _axes(x.ndim, self._axis1, self._axis2)
        xp = backend.get_array_module(x)
        # numpy returns a read-only view; a copy keeps the output writable like every other op
        return xp.diagonal(x, self._offset, self._axis1, self._axis2).copy(),

    def backward(self, indexes, grad_outputs):
        node = self.inputs[0]
        return DiagonalGrad(node.shape, self._offset, self._axis1, self._axis2).apply(grad_outputs)


class DiagonalGrad(FunctionNode):
    """Place ``gy`` on the diagonal of a zero array of the input's shape (the adjoint of Diagonal)."""

    def __init__(self, shape, offset, axis1, axis2):
        self._shape = shape
        self._offset = offset
        self._axis1 = axis1
        self._axis2 = axis2

    def forward(self, inputs):
        gy = inputs[0]
        xp = backend.get_array_module(gy)
        gx = xp.zeros(self._shape, gy.dtype)
        rest = [a for a in range(len(self._shape)) if a not in (self._axis1, self._axis2)]
        view = gx.transpose(rest + [self._axis1, self._axis2])
        k = gy.shape[-1]
        rows = xp.arange(k) + max(-self._offset, 0)
        cols = xp.arange(k) + max(self._offset, 0)
        view[..., rows, cols] = gy
        return gx,

    def backward(self, indexes, grad_outputs):
        return Diagonal(self._offset, self._axis1, self._axis2).apply(grad_outputs)


def diagonal(x, offset=0, axis1=0, axis2=1):
    """The diagonal ``x[..., i, i + offset]`` over axes ``axis1`` and ``axis2`` (``numpy.diagonal``).

    ``x``: array with at least 2 dimensions. Returns a Variable with those two axes removed and
    the diagonal appended as the last axis.
    """
    return Diagonal(int(offset), axis1, axis2).apply((x,))[0]
