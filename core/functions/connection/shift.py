"""shift: the zero-FLOP, zero-parameter spatial shift of channel groups (Wu et al., 2017)."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.utils import conv


def _shifted(length, s):
    """Destination and source slices of a 1-d shift by ``s`` (``y[i] = x[i - s]``)."""
    s = max(-length, min(s, length))  # a shift by the whole length or more moves everything out
    return slice(max(s, 0), length + min(s, 0)), slice(max(-s, 0), length - max(s, 0))


class Shift(FunctionNode):
    def __init__(self, ksize, dilate):
        self.ksize = ksize
        self.dilate = dilate

    def forward(self, inputs):
        x, = inputs
        utils.check_float("shift", "x", x)
        utils.check_ndim("shift", "x", x, 4)
        kh, kw = self.ksize
        n_groups = kh * kw
        n, c, h, w = x.shape
        if c < n_groups:
            raise ValueError(f"shift: x has {c} channels, fewer than the ksize {kh}x{kw} = {n_groups} "
                             f"shift groups (x.shape={tuple(x.shape)})")
        y = backend.get_array_module(x).zeros_like(x)
        size = c // n_groups
        center = (n_groups - 1) // 2
        for i in range(n_groups):
            # The unshifted centre direction goes last, so it also takes the leftover channels.
            g = n_groups - 1 if i == center else center if i == n_groups - 1 else i
            dst_h, src_h = _shifted(h, (g // kw - kh // 2) * self.dilate[0])
            dst_w, src_w = _shifted(w, (g % kw - kw // 2) * self.dilate[1])
            chans = slice(i * size, (i + 1) * size if i < n_groups - 1 else c)
            y[:, chans, dst_h, dst_w] = x[:, chans, src_h, src_w]
        return y,

    def backward(self, indexes, grad_outputs):
        return Shift(self.ksize, (-self.dilate[0], -self.dilate[1])).apply(grad_outputs)


def shift(x, ksize=3, dilate=1):
    """Shift each of ``kh * kw`` channel groups by one offset of a ``kh x kw`` grid, zero filling.

    Group ``i`` of ``C // (kh * kw)`` channels is moved by ``(dy * (a - kh // 2), dx * (b - kw // 2))``
    pixels for its grid cell ``(a, b)``; the centre (no shift) group comes last and also takes
    the ``C % (kh * kw)`` leftover channels.

    Parameters
    ----------
    x : Variable or array of shape (N, C, H, W), with ``C >= kh * kw``
    ksize : odd int or pair of odd ints
    dilate : int or pair of ints
        Pixels per grid step.

    Returns
    -------
    Variable of shape (N, C, H, W).
    """
    ksize = conv.as_tuple(ksize, 2, "shift", "ksize")
    if min(ksize) < 1 or ksize[0] % 2 == 0 or ksize[1] % 2 == 0:
        raise ValueError(f"shift: ksize must be positive and odd, got {ksize}")
    return Shift(ksize, conv.as_tuple(dilate, 2, "shift", "dilate")).apply((x,))[0]
