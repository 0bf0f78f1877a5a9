"""local_convolution_2d: a 2-d convolution with a separate (unshared) filter at every output position."""
from kusari import utils
from kusari.functions.connection.im2col import im2col
from kusari.utils import conv


def _check(x, W, b, stride):
    fname = "local_convolution_2d"
    utils.check_float(fname, "x", x)
    utils.check_float(fname, "W", W)
    utils.check_same_dtype(fname, x=x, W=W, b=b)
    utils.check_ndim(fname, "x", x, 4)
    utils.check_ndim(fname, "W", W, 6)
    if x.shape[1] != W.shape[3]:
        raise ValueError(f"{fname}: x has {x.shape[1]} channels but W expects {W.shape[3]} "
                         f"(x.shape={tuple(x.shape)}, W.shape={tuple(W.shape)})")
    outs = tuple(conv.get_conv_outsize(x.shape[2 + i], W.shape[4 + i], stride[i], 0) for i in range(2))
    if outs != tuple(W.shape[1:3]):
        raise ValueError(f"{fname}: W.shape[1:3]={tuple(W.shape[1:3])} must be the output size {outs} "
                         f"of a {tuple(W.shape[4:])} kernel with stride {stride} over "
                         f"x.shape={tuple(x.shape)}")
    if b is not None and tuple(b.shape) != tuple(W.shape[:3]):
        raise ValueError(f"{fname}: b must have shape {tuple(W.shape[:3])}, got b.shape={tuple(b.shape)}")


def local_convolution_2d(x, W, b=None, stride=1):
    """Locally connected 2-d layer: like ``convolution_2d`` without padding, but unshared weights.

    Parameters
    ----------
    x : Variable or array of shape (N, C, H, W)
    W : Variable or array of shape (C_out, H_out, W_out, C, kh, kw)
        ``W[:, i, j]`` is the filter bank applied to the patch at output position (i, j);
        ``H_out = (H - kh) // stride + 1`` (likewise ``W_out``).
    b : Variable or array of shape (C_out, H_out, W_out), optional
    stride : int or pair of ints

    Returns
    -------
    Variable of shape (N, C_out, H_out, W_out).
    """
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.transpose import transpose
    from kusari.functions.math.matmul import matmul
    stride = conv.as_tuple(stride, 2, "local_convolution_2d", "stride")
    if min(stride) < 1:
        raise ValueError(f"local_convolution_2d: stride must be positive, got {stride}")
    W, = utils.cast_like(x, W)  # b must match x, as in Chainer
    _check(x, W, b, stride)
    n = x.shape[0]
    c_out, h_out, w_out = W.shape[:3]
    p = h_out * w_out
    col = reshape(im2col(x, W.shape[4:], stride), (n, -1, p))
    w = reshape(W, (c_out, p, -1))
    # (P, N, K) @ (P, K, C_out): one matrix product per output position.
    y = matmul(transpose(col, (2, 0, 1)), transpose(w, (1, 2, 0)))
    y = reshape(transpose(y, (1, 2, 0)), (n, c_out, h_out, w_out))
    return y if b is None else y + b
