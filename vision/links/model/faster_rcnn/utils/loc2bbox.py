"""loc2bbox: boxes decoded from offsets and log-scales relative to source boxes (R-CNN's encoding)."""
from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes


def loc2bbox(src_bbox, loc):
    """Decode ``loc`` relative to ``src_bbox``; the inverse of :func:`bbox2loc`.

    With a source box of centre ``(p_y, p_x)`` and size ``(p_h, p_w)`` and a row ``(t_y, t_x,
    t_h, t_w)`` of ``loc``, the decoded box has centre ``(p_h t_y + p_y, p_w t_x + p_x)`` and size
    ``(p_h exp(t_h), p_w exp(t_w))``. ``loc`` may hold ``K`` encodings per box side by side
    (shape (R, 4K), e.g. one per class); each is decoded against the same source box.

    Parameters
    ----------
    src_bbox : numpy.ndarray or cupy.ndarray, shape (R, 4)
        Source boxes ``(y_min, x_min, y_max, x_max)``, floating point.
    loc : array of the same module, shape (R, 4K)
        ``(t_y, t_x, t_h, t_w)`` groups, floating point.

    Returns
    -------
    array, shape (R, 4K), of ``loc``'s dtype
        The decoded boxes ``(y_min, x_min, y_max, x_max)``, one group of four per encoding.

    Raises
    ------
    ValueError
        ``src_bbox`` not (R, 4) or with an inverted box, or ``loc`` not (R, 4K).
    """
    fname = "loc2bbox"
    check_boxes(fname, "src_bbox", src_bbox)
    if not hasattr(loc, "dtype") or loc.dtype.kind != "f":
        raise TypeError(f"{fname}: loc must be a floating-point array, got "
                        f"{getattr(loc, 'dtype', type(loc).__name__)}")
    if loc.ndim != 2 or loc.shape[1] % 4 or loc.shape[1] == 0 or loc.shape[0] != src_bbox.shape[0]:
        raise ValueError(f"{fname}: loc must have shape (R, 4K) with R = src_bbox.shape[0], got "
                         f"loc.shape={tuple(loc.shape)}, src_bbox.shape={tuple(src_bbox.shape)}")
    xp = backend.get_array_module(src_bbox)
    height = (src_bbox[:, 2] - src_bbox[:, 0])[:, None]
    width = (src_bbox[:, 3] - src_bbox[:, 1])[:, None]
    ctr_y = src_bbox[:, 0, None] + 0.5 * height
    ctr_x = src_bbox[:, 1, None] + 0.5 * width

    # (R, K) each; ChainerCV's arithmetic in its order, so that the rounding is the same. Untrained
    # networks predict huge scales: exp overflows to inf (and inf - inf gives nan), which callers clip
    # or drop, as in ChainerCV, without a warning per call
    with xp.errstate(over="ignore", invalid="ignore"):
        ctr_y = loc[:, 0::4] * height + ctr_y
        ctr_x = loc[:, 1::4] * width + ctr_x
        h = xp.exp(loc[:, 2::4]) * height
        w = xp.exp(loc[:, 3::4]) * width
        dst = xp.stack((ctr_y - 0.5 * h, ctr_x - 0.5 * w, ctr_y + 0.5 * h, ctr_x + 0.5 * w), axis=2)
    return dst.reshape(loc.shape).astype(loc.dtype, copy=False)
