"""OpenCV 4's ``cv2.warpAffine`` with a constant border, to the bit (what ChainerCV's cv2 rotate ran), on any OpenCV.

OpenCV 5 rewrote warpAffine in floating point, so it no longer gives the numbers ChainerCV 0.13.1's users
got from OpenCV 4. OpenCV 4's warpAffine was two steps. First each output pixel is mapped back through
the inverted matrix in fixed point (1/1024 pixel, rounded to 1/32: an integer pixel and one of 32 x 32
sub-pixel positions); that integer arithmetic is done here. Then ``cv2.remap`` interpolates with those
maps from tables of weights per sub-pixel position (float32 weights; 15-bit integer ones for uint8,
whose sums are rounded back with ``(sum + 2**14) >> 15``). OpenCV 5 still runs that table-driven
remap for nearest and bilinear maps in this form, so those call ``cv2.remap``; its bicubic remap
changed, so the bicubic one is computed here, summing in OpenCV 4's order: row by row inside the
image; near the edge, the border value plus each on-image tap's difference from it.
"""
import functools

import numpy

from kusari.vision import _backend

_AB_BITS = 10                 # the back-mapped coordinates' fixed point: 1/1024 pixel
_INTER_BITS = 5               # the sub-pixel positions: 1/32 pixel
_TAB_SIZE = 1 << _INTER_BITS
_COEF_BITS = 15               # uint8 weights: 15-bit fixed point
DTYPES = (numpy.uint8, numpy.uint16, numpy.int16, numpy.float32, numpy.float64)   # what remap interpolates


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


def _source_positions(m: list, out_H: int, out_W: int, bits: int) -> tuple:
    """Each output pixel's source position ``(X, Y)`` in units of ``2**-bits`` pixel, rounded as OpenCV 4
    rounds it (int64 arrays of shape (out_H, out_W))."""
    shift = _AB_BITS - bits
    xs = numpy.arange(out_W, dtype=numpy.float64)
    ys = numpy.arange(out_H, dtype=numpy.float64)
    adelta = numpy.rint(m[0] * xs * (1 << _AB_BITS)).astype(numpy.int64)
    bdelta = numpy.rint(m[3] * xs * (1 << _AB_BITS)).astype(numpy.int64)
    # + half a unit of the result, so that the shift rounds to nearest
    X0 = numpy.rint((m[1] * ys + m[2]) * (1 << _AB_BITS)).astype(numpy.int64) + (1 << (shift - 1))
    Y0 = numpy.rint((m[4] * ys + m[5]) * (1 << _AB_BITS)).astype(numpy.int64) + (1 << (shift - 1))
    return (X0[:, None] + adelta) >> shift, (Y0[:, None] + bdelta) >> shift


@functools.cache
def _cubic_tables() -> tuple:
    """OpenCV's bicubic weights as (16, 1024) float32 and int32 tables: ``[i * 4 + j, ay * 32 + ax]`` is
    the weight of tap row ``i``, column ``j`` at sub-pixel position ``(ay, ax)``."""
    x = numpy.arange(_TAB_SIZE, dtype=numpy.float32) * numpy.float32(1 / _TAB_SIZE)
    A = numpy.float32(-0.75)   # Keys' cubic kernel, each step rounded to float32 as OpenCV computes it
    c0 = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A
    c1 = ((A + 2) * x - (A + 3)) * x * x + 1
    c2 = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1
    c3 = 1 - c0 - c1 - c2
    w = numpy.stack((c0, c1, c2, c3), axis=1)                              # (32, 4)
    tab = (w[:, None, :, None] * w[None, :, None, :]).reshape(_TAB_SIZE ** 2, 16)
    itab = numpy.rint(tab * numpy.float32(1 << _COEF_BITS)).astype(numpy.int32)
    # each position's integer weights must sum to 2**15: OpenCV moves the difference onto the smallest
    # (or largest) weight of the central 2 x 2 taps, scanned row by row
    centre = (10, 11, 14, 15)
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
    tab, itab = numpy.ascontiguousarray(tab.T), numpy.ascontiguousarray(itab.T)
    tab.flags.writeable = itab.flags.writeable = False
    return tab, itab


def _border_value(fill, dtype) -> numpy.ndarray:
    """OpenCV's ``saturate_cast`` of the border value to the image's dtype."""
    if dtype.kind == "f":
        return numpy.array(fill, dtype=dtype)
    info = numpy.iinfo(dtype)
    return numpy.array(min(max(numpy.rint(fill), info.min), info.max), dtype=dtype)


def _bicubic(img: numpy.ndarray, X: numpy.ndarray, Y: numpy.ndarray, fill) -> numpy.ndarray:
    """OpenCV 4's bicubic remap with a constant border, at fixed-point positions ``X``, ``Y`` (1/32 pixel)."""
    C, H, W = img.shape
    out_shape = X.shape
    cval = _border_value(fill, img.dtype)
    fixed_point = img.dtype == numpy.uint8
    work_dtype = numpy.int32 if fixed_point else numpy.float64 if img.dtype == numpy.float64 else numpy.float32
    cv = work_dtype(cval)
    # the image in a 4-pixel frame of the border value: every tap reads a value, off-image ones cv
    padded = numpy.full((C, H + 8, W + 8), cv, dtype=work_dtype)
    padded[:, 4:H + 4, 4:W + 4] = img
    flat = padded.reshape(C, -1)
    X, Y = X.ravel(), Y.ravel()
    sx, sy = (X >> _INTER_BITS) - 1, (Y >> _INTER_BITS) - 1                 # the top-left tap
    base = (numpy.clip(sy, -4, H) + 4) * (W + 8) + numpy.clip(sx, -4, W) + 4
    offsets = [i * (W + 8) + j for i in range(4) for j in range(4)]
    position = (Y & (_TAB_SIZE - 1)) * _TAB_SIZE + (X & (_TAB_SIZE - 1))
    tab, itab = _cubic_tables()
    table = itab if fixed_point else tab

    def row_sums(pixels):
        """Inside the image: the taps' weighted sums, row by row (in place: the same roundings, fewer copies)."""
        index, w = base[pixels], table[:, position[pixels]]
        total, row, term = (numpy.empty((C, pixels.size), dtype=work_dtype) for _ in range(3))
        for i in range(4):
            numpy.multiply(numpy.take(flat, index + offsets[i * 4], axis=1), w[i * 4], out=row)
            for j in range(1, 4):
                numpy.multiply(numpy.take(flat, index + offsets[i * 4 + j], axis=1), w[i * 4 + j], out=term)
                row += term
            if i == 0:
                total, row = row, total
            else:
                total += row
        return total

    def edge_sums(pixels):
        """Near the edge: cv plus (tap - cv) * w over the on-image taps (an off-image tap reads cv and adds 0)."""
        index, w = base[pixels], table[:, position[pixels]]
        total = numpy.full((C, pixels.size), cv, dtype=work_dtype)
        for t, offset in enumerate(offsets):
            total = total + (numpy.take(flat, index + offset, axis=1) - cv) * w[t]
        return total

    off = (sx >= W) | (sx + 4 <= 0) | (sy >= H) | (sy + 4 <= 0)            # every tap off the image: cval
    interior = (sx >= 0) & (sx < W - 3) & (sy >= 0) & (sy < H - 3)
    out = numpy.empty((C, X.size), dtype=img.dtype)
    out[:] = cval
    # for uint8 the two integer sums agree, so the row sums serve the edge too
    parts = [(interior | ~off, row_sums)] if fixed_point else [(interior, row_sums), (~interior & ~off, edge_sums)]
    for mask, sums in parts:
        pixels = numpy.flatnonzero(mask)
        total = sums(pixels)
        if fixed_point:
            out[:, pixels] = numpy.clip((total + (1 << (_COEF_BITS - 1))) >> _COEF_BITS, 0, 255)
        elif img.dtype.kind == "f":
            out[:, pixels] = total
        else:   # 16-bit: saturate_cast from float, rounding half to even
            info = numpy.iinfo(img.dtype)
            out[:, pixels] = numpy.clip(numpy.rint(total), info.min, info.max)
    return out.reshape((C,) + out_shape)


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
    m = _inverse(matrix)
    if interpolation == "cubic":
        return _bicubic(img, *_source_positions(m, out_H, out_W, _INTER_BITS), fill)
    cv2 = _backend.cv2_module()
    if interpolation == "nearest":
        X, Y = _source_positions(m, out_H, out_W, 0)
        positions, flag = None, cv2.INTER_NEAREST
    else:
        X, Y = _source_positions(m, out_H, out_W, _INTER_BITS)
        positions = ((Y & (_TAB_SIZE - 1)) * _TAB_SIZE + (X & (_TAB_SIZE - 1))).astype(numpy.uint16)
        X, Y, flag = X >> _INTER_BITS, Y >> _INTER_BITS, cv2.INTER_LINEAR
    xy = numpy.clip(numpy.stack((X, Y), axis=-1), -32768, 32767).astype(numpy.int16)   # saturate_cast<short>
    out = cv2.remap(img.transpose(1, 2, 0), xy, positions, flag, borderMode=cv2.BORDER_CONSTANT,
                    borderValue=(fill,) * 4)
    return out.reshape(out_H, out_W, img.shape[0]).transpose(2, 0, 1)   # OpenCV drops a single channel axis
