"""deformable_convolution_2d_sampler: 2-D convolution whose taps are shifted by learned offsets."""
import numpy

from kusari import backend, utils
from kusari.functions.array.pad import pad as pad_array
from kusari.functions.array.reshape import reshape
from kusari.functions.array.spatial_transformer_sampler import SpatialTransformerSampler
from kusari.functions.array.transpose import transpose
from kusari.utils.conv import as_tuple, get_conv_outsize


def deformable_convolution_2d_sampler(x, offset, W, b=None, stride=1, pad=0):
    """Deformable convolution (Dai et al., 2017) with given sampling offsets.

    ``x``: ``(n, c_I, h, w)``; ``W``: ``(c_O, c_I, k_H, k_W)``; ``b``: ``(c_O,)`` or None;
    ``offset``: ``(n, 2 * k_H * k_W, h_O, w_O)`` whose first ``k_H * k_W`` channels shift each
    tap horizontally and the last ``k_H * k_W`` vertically, in pixels. Tap ``(i, j)`` of output
    ``(p, q)`` reads the zero-padded input bilinearly at ``(p * s_Y + i + dy, q * s_X + j + dx)``.
    ``h_O = (h + 2 p_H - k_H) // s_Y + 1`` and likewise ``w_O``. Returns ``(n, c_O, h_O, w_O)``.
    """
    from kusari.functions.math.tensordot import tensordot
    fname = "deformable_convolution_2d_sampler"
    sy, sx = as_tuple(stride, 2, fname, "stride")
    ph, pw = as_tuple(pad, 2, fname, "pad")
    if x.ndim != 4 or W.ndim != 4:
        raise ValueError(f"{fname}: x and W must be 4-dimensional, got x.shape={x.shape}, "
                         f"W.shape={W.shape}")
    n, c, h, w = x.shape
    out_c, in_c, kh, kw = W.shape
    if in_c != c:
        raise ValueError(f"{fname}: x has {c} channels but W expects {in_c} "
                         f"(x.shape={x.shape}, W.shape={W.shape})")
    out_h = get_conv_outsize(h, kh, sy, ph)
    out_w = get_conv_outsize(w, kw, sx, pw)
    expected = (n, 2 * kh * kw, out_h, out_w)
    if tuple(offset.shape) != expected:
        raise ValueError(f"{fname}: offset.shape={offset.shape} but x.shape={x.shape}, "
                         f"W.shape={W.shape}, stride={(sy, sx)}, pad={(ph, pw)} need {expected}")
    utils.check_float(fname, "x", x)
    utils.check_same_dtype(fname, x=x, offset=offset, W=W, b=b)

    # regular sampling positions (vertical, horizontal) of every tap, in padded-image pixels
    ty, tx = numpy.meshgrid(numpy.arange(kh), numpy.arange(kw), indexing="ij")
    oy, ox = numpy.meshgrid(numpy.arange(out_h) * sy, numpy.arange(out_w) * sx, indexing="ij")
    base_x = tx.reshape(-1, 1) + ox.reshape(1, -1)
    base_y = ty.reshape(-1, 1) + oy.reshape(1, -1)
    xp = backend.get_array_module(x)
    base = xp.asarray(numpy.stack([base_x, base_y]).astype(x.dtype))
    grid = reshape(offset, (n, 2, kh * kw, out_h * out_w)) + base
    x_pad = pad_array(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), "constant")
    cols, = SpatialTransformerSampler(normalized=False).apply((x_pad, grid))
    y = tensordot(cols, reshape(W, (out_c, c, kh * kw)), axes=((1, 2), (1, 2)))
    y = reshape(transpose(y, (0, 2, 1)), (n, out_c, out_h, out_w))
    if b is not None:
        y = y + reshape(b, (1, out_c, 1, 1))
    return y
