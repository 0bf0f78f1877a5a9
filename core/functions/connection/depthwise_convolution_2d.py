"""depthwise_convolution_2d: each input channel convolved with its own stack of filters."""
from kusari import utils
from kusari.functions.connection.convolution import apply_convolution


def depthwise_convolution_2d(x, W, b=None, stride=1, pad=0):
    """Depthwise 2-d convolution: a grouped convolution with one group per input channel.

    Parameters
    ----------
    x : Variable or array of shape (N, C, H, W)
    W : Variable or array of shape (M, C, kh, kw)
        ``M`` filters (the channel multiplier) per input channel.
    b : Variable or array of shape (M * C,), optional
    stride, pad : int or pair of ints

    Returns
    -------
    Variable of shape (N, C * M, H_out, W_out); output channel ``c * M + m`` is input channel ``c``
    convolved with ``W[m, c]``.
    """
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.transpose import transpose
    utils.check_ndim("depthwise_convolution_2d", "x", x, 4)
    utils.check_ndim("depthwise_convolution_2d", "W", W, 4)
    if x.shape[1] != W.shape[1]:
        raise ValueError(f"depthwise_convolution_2d: x has {x.shape[1]} channels but W expects "
                         f"{W.shape[1]} (x.shape={tuple(x.shape)}, W.shape={tuple(W.shape)})")
    m, c, kh, kw = W.shape
    W, = utils.cast_like(x, W)  # b must match x, as in convolution_2d
    w = reshape(transpose(W, (1, 0, 2, 3)), (c * m, 1, kh, kw))
    return apply_convolution("depthwise_convolution_2d", 2, x, w, b, stride, pad, False, 1, c)
