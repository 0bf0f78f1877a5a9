"""split_axis: split an array into pieces along an axis."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.array._common import fill_missing


class SplitAxis(FunctionNode):
    def __init__(self, indices_or_sections, axis):
        self._spec = indices_or_sections
        self._axis = axis

    def forward(self, inputs):
        x = inputs[0]
        if x.ndim == 0:
            raise ValueError("split_axis: x must have at least one dimension, got shape ()")
        axis = utils.normalize_axis("split_axis", self._axis, x.ndim)[0]
        spec = self._spec
        if isinstance(spec, int):
            if spec <= 0:
                raise ValueError(f"split_axis: indices_or_sections={spec} must be positive")
            if x.shape[axis] % spec:
                raise ValueError(f"split_axis: x.shape[{axis}]={x.shape[axis]} cannot be split into "
                                 f"{spec} equal sections (x.shape={x.shape})")
        self._axis = axis
        if isinstance(spec, int):   # equal sections as slices: what numpy.split returns, without its overhead
            size = x.shape[axis] // spec
            lead = (slice(None),) * axis
            ys = [x[lead + (slice(i * size, (i + 1) * size),)] for i in range(spec)]
        else:
            ys = backend.get_array_module(x).split(x, spec, axis=axis)
        self._shapes = [y.shape for y in ys]
        return tuple(ys)

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.concat import concat
        gys = fill_missing(grad_outputs, self._shapes, self.inputs[0].dtype)
        return concat(gys, axis=self._axis),


def split_axis(x, indices_or_sections, axis, force_tuple=True):
    """Split ``x`` along ``axis`` like ``numpy.split``.

    ``indices_or_sections``: an int ``k`` (``x.shape[axis]`` must be divisible by ``k``; gives
    ``k`` equal pieces) or a sorted sequence of split points. Returns a tuple of Variables; with
    ``force_tuple=False`` a single piece is returned as a Variable.
    """
    if isinstance(indices_or_sections, (int, numpy.integer)):
        spec = int(indices_or_sections)
    else:
        spec = [int(i) for i in indices_or_sections]
    ys = SplitAxis(spec, axis).apply((x,))
    if not force_tuple and len(ys) == 1:
        return ys[0]
    return ys
