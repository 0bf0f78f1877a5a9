"""OpenCV 4's ``cv2.warpAffine`` with a constant border, in NumPy, to the bit (what ChainerCV's cv2 rotate ran).

OpenCV 5 rewrote warpAffine in floating point, so it no longer gives the numbers ChainerCV 0.13.1's users
got from OpenCV 4. OpenCV 4 maps each output pixel back through the inverted matrix in fixed point
(1/1024 pixel, rounded to 1/32), then interpolates from tables of weights for the 32 x 32 sub-pixel
positions: float32 weights for floating-point images (float64 ones are computed in double), 15-bit
integer weights for uint8 (rounded back with ``(sum + 2**14) >> 15``). A neighbour outside the image
counts as the border value; a pixel whose neighbours are all outside is the border value itself.
Each sum is evaluated in OpenCV's order, so the float results agree to the last bit.
"""
import functools

import numpy

_AB_BITS = 10                 # the back-mapped coordinates' fixed point: 1/1024 pixel
_INTER_BITS = 5               # interpolation tables: 32 sub-pixel positions per axis
_TAB_SIZE = 1 << _INTER_BITS
_COEF_BITS = 15               # uint8 weights: sum 2**15
_KSIZE = {"linear": 2, "cubic": 4}
DTYPES = (numpy.uint8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64)


def _weights_1d(method: str) -> numpy.ndarray:
    """(32, ksize) float32 interpolation weights at the sub-pixel offsets i / 32."""
    x = numpy.arange(_TAB_SIZE, dtype=numpy.float32) * numpy.float32(1 / _TAB_SIZE)
    if method == "linear":
        return numpy.stack((1 - x, x), axis=1)
    A = numpy.float32(-0.75)   # Keys' cubic kernel, each step rounded to float32 as OpenCV computes it
    c0 = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A
    c1 = ((A + 2) * x - (A + 3)) * x * x + 1
    c2 = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1
    c3 = 1 - c0 - c1 - c2
    return numpy.stack((c0, c1, c2, c3), axis=1)


@functools.cache
def _tables(method: str) -> tuple:
    """The (1024, ksize * ksize) float32 and int32 weight tables, indexed by ``ay * 32 + ax``."""
    k = _KSIZE[method]
    w = _weights_1d(method)
    # tab[ay * 32 + ax, k1 * k + k2] = w[ay, k1] * w[ax, k2]
    tab = (w[:, None, :, None] * w[None, :, None, :]).reshape(_TAB_SIZE * _TAB_SIZE, k * k)
    itab = numpy.rint(tab * numpy.float32(1 << _COEF_BITS)).astype(numpy.int32)
    # the integer weights of a position must sum to exactly 2**15: OpenCV moves the difference onto the
    # smallest (or largest) weight of the central 2 x 2, scanning it row by row
    centre = [(k // 2 + a) * k + k // 2 + b for a in range(2) for b in range(2)]
    for row in numpy.flatnonzero(itab.sum(axis=1) != 1 << _COEF_BITS):
        weights = itab[row]
        low = high = centre[0]
        for index in centre:
            if weights[index] < weights[low]:
                low = index
            elif weights[index] > weights[high]:
                high = index
        diff = weights.sum() - (1 << _COEF_BITS)
        weights[high if diff < 0 else low] -= diff
    tab.flags.writeable = itab.flags.writeable = False
    return tab, itab


def _inverse(matrix) -> list:
    """The inverse affine map, with OpenCV's double arithmetic."""
    m = [float(v) for v in numpy.asarray(matrix, dtype=numpy.float64).ravel()]
    D = m[0] * m[4] - m[1] * m[3]
    D = 1.0 / D if D != 0 else 0.0
    a11, a22 = m[4] * D, m[0] * D
    m[0], m[1], m[3], m[4] = a11, m[1] * -D, m[3] * -D, a22
    b1 = -m[0] * m[2] - m[1] * m[5]
    b2 = -m[3] * m[2] - m[4] * m[5]
    m[2], m[5] = b1, b2
    return m


def _source_positions(m: list, out_H: int, out_W: int, shift: int) -> tuple:
    """Each output pixel's source position in units of ``2**-(10 - shift)`` pixel (int64 arrays)."""
    round_delta = (1 << _AB_BITS) // 2 if shift == _AB_BITS else (1 << _AB_BITS) // _TAB_SIZE // 2
    xs = numpy.arange(out_W, dtype=numpy.float64)
    ys = numpy.arange(out_H, dtype=numpy.float64)
    adelta = numpy.rint(m[0] * xs * (1 << _AB_BITS)).astype(numpy.int64)
    bdelta = numpy.rint(m[3] * xs * (1 << _AB_BITS)).astype(numpy.int64)
    X0 = numpy.rint((m[1] * ys + m[2]) * (1 << _AB_BITS)).astype(numpy.int64) + round_delta
    Y0 = numpy.rint((m[4] * ys + m[5]) * (1 << _AB_BITS)).astype(numpy.int64) + round_delta
    return (X0[:, None] + adelta[None, :]) >> shift, (Y0[:, None] + bdelta[None, :]) >> shift


def _border_value(fill, dtype) -> numpy.ndarray:
    """OpenCV's ``saturate_cast`` of the border value to the image's dtype."""
    if dtype.kind == "f":
        return numpy.array(fill, dtype=dtype)
    info = numpy.iinfo(dtype)
    return numpy.array(min(max(numpy.rint(fill), info.min), info.max), dtype=dtype)


def _cast(values: numpy.ndarray, dtype) -> numpy.ndarray:
    """OpenCV's ``saturate_cast`` from the working type (round half to even, then clip)."""
    if dtype.kind == "f":
        return values.astype(dtype, copy=False)
    info = numpy.iinfo(dtype)
    return numpy.clip(numpy.rint(values), info.min, info.max).astype(dtype)


def warp_affine(img: numpy.ndarray, matrix, out_H: int, out_W: int, interpolation: str, fill) -> numpy.ndarray:
    """``cv2.warpAffine`` of OpenCV 4 on a CHW image, with ``borderValue`` ``fill`` in every channel.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        uint8, uint16, int16, float32 or float64.
    matrix : array of shape (2, 3)
        The forward affine map (as ``cv2.getRotationMatrix2D`` gives it).
    out_H, out_W : int
        The output size.
    interpolation : {'nearest', 'linear', 'cubic'}
    fill : float
        The border value.

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W)
        Of ``img``'s dtype.
    """
    C, H, W = img.shape
    cval = _border_value(fill, img.dtype)
    m = _inverse(matrix)
    if interpolation == "nearest":
        sx, sy = _source_positions(m, out_H, out_W, _AB_BITS)
        inside = (sx >= 0) & (sx < W) & (sy >= 0) & (sy < H)
        values = img[:, numpy.clip(sy, 0, H - 1), numpy.clip(sx, 0, W - 1)]
        return numpy.where(inside, values, cval)

    X, Y = _source_positions(m, out_H, out_W, _AB_BITS - _INTER_BITS)
    k = _KSIZE[interpolation]
    # the top-left tap: the pixel left of / above the position for linear, one more for cubic
    sx = (X >> _INTER_BITS) - (k // 2 - 1)
    sy = (Y >> _INTER_BITS) - (k // 2 - 1)
    position = (Y & (_TAB_SIZE - 1)) * _TAB_SIZE + (X & (_TAB_SIZE - 1))
    tab, itab = _tables(interpolation)
    fixed_point = img.dtype == numpy.uint8
    if fixed_point:
        work, weights, cv = img.astype(numpy.int32), itab[position], numpy.int32(cval)
    else:
        work_dtype = numpy.float64 if img.dtype == numpy.float64 else numpy.float32
        work, weights, cv = img.astype(work_dtype, copy=False), tab[position], work_dtype(cval)

    columns = [sx + j for j in range(k)]
    rows = [sy + i for i in range(k)]
    col_ok = [(c >= 0) & (c < W) for c in columns]
    row_ok = [(r >= 0) & (r < H) for r in rows]

    def tap(i: int, j: int, outside) -> numpy.ndarray:
        """Tap (i, j) of every output pixel, ``outside`` where it falls off the image."""
        values = work[:, numpy.clip(rows[i], 0, H - 1), numpy.clip(columns[j], 0, W - 1)]
        return numpy.where(row_ok[i] & col_ok[j], values, outside)

    if interpolation == "linear":
        # in and at the image's edge alike: v0*w0 + v1*w1 + v2*w2 + v3*w3, off-image taps = the border value
        total = None
        for i in range(2):
            for j in range(2):
                term = tap(i, j, cv) * weights[..., i * 2 + j]
                total = term if total is None else total + term
    else:
        # inside (all 16 taps on the image): row sums added row by row
        total = None
        for i in range(4):
            row = tap(i, 0, cv) * weights[..., i * 4]
            for j in range(1, 4):
                row = row + tap(i, j, cv) * weights[..., i * 4 + j]
            total = row if total is None else total + row
        # at the edge: the border value plus each on-image tap's difference from it, in tap order
        edge = numpy.full(total.shape, cv * (1 << _COEF_BITS if fixed_point else 1), dtype=total.dtype)
        for i in range(4):
            for j in range(4):
                ok = row_ok[i] & col_ok[j]
                edge = numpy.where(ok, edge + (tap(i, j, cv) - cv) * weights[..., i * 4 + j], edge)
        interior = (sx >= 0) & (sx < W - 3) & (sy >= 0) & (sy < H - 3)
        total = numpy.where(interior, total, edge)
    if fixed_point:
        out = numpy.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255).astype(numpy.uint8)
    else:
        out = _cast(total, img.dtype)
    # a pixel whose taps all fall off the image is the border value itself
    off = (sx >= W) | (sx + k <= 0) | (sy >= H) | (sy + k <= 0)
    return numpy.where(off, cval, out)
