"""as_strided: a strided view of an array's elements (shape, strides and offset in elements)."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


def _flat_index(shape, strides, offset):
    """For each output position, its index into the flattened input (a NumPy intp array)."""
    index = numpy.full(shape, offset, dtype=numpy.intp)
    for axis, (n, s) in enumerate(zip(shape, strides)):
        index += (numpy.arange(n, dtype=numpy.intp) * s).reshape((n,) + (1,) * (len(shape) - axis - 1))
    return index


class AsStrided(FunctionNode):
    def __init__(self, shape, strides, storage_offset):
        self._shape = shape
        self._strides = strides
        self._offset = storage_offset

    def forward(self, inputs):
        x = inputs[0]
        index = _flat_index(self._shape, self._strides, self._offset)
        if index.size and (index.min() < 0 or index.max() >= x.size):
            raise ValueError(
                f"as_strided: shape={self._shape}, strides={self._strides}, "
                f"storage_offset={self._offset} reach elements {index.min()}..{index.max()} "
                f"but x has {x.size} (x.shape={x.shape})")
        xp = backend.get_array_module(x)
        self._index = xp.asarray(index)
        return utils.force_array(xp.ravel(x)[self._index]),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.get_item import GetItemGrad
        from kusari.functions.array.reshape import reshape
        shape = self.inputs[0].shape
        # the gradient of a gather is a scatter-add: overlapping windows accumulate
        gx, = GetItemGrad((self._index,), (utils.size_of_shape(shape),)).apply(grad_outputs)
        return reshape(gx, shape),


def as_strided(x, shape, strides, storage_offset=None):
    """Elements of ``x`` arranged with the given ``shape`` and ``strides``.

    ``x`` is read as its C-order flattening ``x.ravel()``; output element ``idx`` is
    ``x.ravel()[storage_offset + sum(idx[k] * strides[k])]``. ``strides`` and ``storage_offset``
    count elements, not bytes (Chainer's convention); ``storage_offset=None`` means 0. Every
    position must fall inside ``x``. Unlike ``numpy.lib.stride_tricks.as_strided`` the result
    is a copy, and the gradient adds up over overlapping positions.
    """
    shape = tuple(int(s) for s in shape)
    strides = tuple(int(s) for s in strides)
    if len(shape) != len(strides):
        raise ValueError(f"as_strided: shape={shape} and strides={strides} differ in length")
    if any(s < 0 for s in shape):
        raise ValueError(f"as_strided: shape={shape} must not be negative")
    offset = 0 if storage_offset is None else int(storage_offset)
    return AsStrided(shape, strides, offset).apply((x,))[0]
