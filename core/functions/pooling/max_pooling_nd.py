"""max_pooling_nd and max_pooling_1d/2d/3d: maximum over sliding N-d windows."""
from kusari.function_node import FunctionNode
from kusari.functions.pooling import _window
from kusari.onednn import pooling as onednn_pooling


class MaxPoolingND(FunctionNode):
    """Max pooling. ``indexes`` (the flat in-window position of each maximum) is computed by NumPy's
    kernel; with oneDNN (and ``return_indices`` off) the forward and the gradient run oneDNN's kernels
    instead, and ``indexes`` is found from the retained input only if double backprop needs it."""

    def __init__(self, fname, nd, ksize, stride, pad, cover_all, return_indices=False):
        self._fname = fname
        self._args = (nd, ksize, stride, pad, cover_all)
        self._return_indices = return_indices
        self._onednn = None
        self.indexes = None

    def forward(self, inputs):
        x = inputs[0]
        self._geom = _window.pooling_geometry(self._fname, x, *self._args)
        fast = None if self._return_indices else _window.onednn_pooling(x, self._geom, onednn_pooling.MAX)
        if fast is None:
            y, self.indexes = _window.window_max(x, self._geom)
            return y,
        lib, y, saved = fast
        self.retain_inputs((0,))
        self._onednn = (lib, saved)
        return y,

    def _found_indexes(self):
        if self.indexes is None:
            self.indexes = _window.window_max(self.get_retained_inputs()[0].array, self._geom)[1]
        return self.indexes

    def _onednn_grad(self):
        lib, saved = self._onednn
        return _window.PoolingGrad(lib, self._geom, onednn_pooling.MAX, saved,
                                   lambda: _window.WindowGather(self._geom, self._found_indexes()))

    def backward(self, indexes, grad_outputs):
        if self._onednn is not None:
            return self._onednn_grad().apply(grad_outputs)
        return _window.WindowScatter(self._geom, self.indexes).apply(grad_outputs)


def _max_pooling(fname, nd, x, ksize, stride, pad, cover_all, return_indices):
    func = MaxPoolingND(fname, nd, ksize, stride, pad, cover_all, return_indices)
    y = func.apply((x,))[0]
    return (y, func.indexes) if return_indices else y


def max_pooling_nd(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """N-d spatial max pooling.

    x: (n, c, d_1, ..., d_N). ksize, stride (default: ksize) and pad are ints or N-tuples; padding
    never wins the max, and a window lying entirely in the padding gives 0. With ``cover_all`` the
    last windows may run past the input so every element is pooled. Returns y of shape
    (n, c, out_1, ..., out_N); with ``return_indices`` returns ``(y, indexes)``, indexes being the
    array of flat in-window positions of the maxima (what ``upsampling_2d`` takes).
    """
    return _max_pooling("max_pooling_nd", None, x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_1d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """1-d max pooling of x (n, c, w); see ``max_pooling_nd``."""
    return _max_pooling("max_pooling_1d", 1, x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_2d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """2-d max pooling of x (n, c, h, w) to (n, c, out_h, out_w); see ``max_pooling_nd``."""
    return _max_pooling("max_pooling_2d", 2, x, ksize, stride, pad, cover_all, return_indices)


def max_pooling_3d(x, ksize, stride=None, pad=0, cover_all=True, return_indices=False):
    """3-d max pooling of x (n, c, d, h, w); see ``max_pooling_nd``."""
    return _max_pooling("max_pooling_3d", 3, x, ksize, stride, pad, cover_all, return_indices)
