"""dilated_convolution_2d: 2-d convolution whose filter taps are spread ``dilate`` pixels apart."""
from kusari import utils
from kusari.functions.connection.convolution import apply_convolution


def dilated_convolution_2d(x, W, b=None, stride=1, pad=0, dilate=1, cover_all=False):
    """Dilated (atrous) 2-d convolution; ``convolution_2d`` with ``dilate``.

    Parameters
    ----------
    x : Variable or array of shape (N, C, H, W)
    W : Variable or array of shape (C_out, C, kh, kw)
    b : Variable or array of shape (C_out,), optional
    stride, pad, dilate : int or pair of ints
    cover_all : bool

    Returns
    -------
    Variable of shape (N, C_out, H_out, W_out) with
    ``H_out = (H + 2 * pad - (kh - 1) * dilate - 1) // stride + 1``.
    """
    W, = utils.cast_like(x, W)  # b must match x, as in convolution_2d
    return apply_convolution("dilated_convolution_2d", 2, x, W, b, stride, pad, cover_all, dilate, 1)
