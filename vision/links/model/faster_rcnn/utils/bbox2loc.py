"""bbox2loc: the offsets and log-scales that move source boxes onto destination boxes (R-CNN's encoding)."""
from kusari import backend
from kusari.vision.links.model.faster_rcnn.utils._checks import check_boxes


def bbox2loc(src_bbox, dst_bbox):
    """Encode ``dst_bbox`` relative to ``src_bbox``; the inverse of :func:`loc2bbox`.

    With a source box of centre ``(p_y, p_x)`` and size ``(p_h, p_w)`` and a destination box of
    centre ``(g_y, g_x)`` and size ``(g_h, g_w)``::

        t_y = (g_y - p_y) / p_h        t_h = log(g_h / p_h)
        t_x = (g_x - p_x) / p_w        t_w = log(g_w / p_w)

    A source height or width below the dtype's epsilon is raised to it (no division by zero).

    Parameters
    ----------
    src_bbox : numpy.ndarray or cupy.ndarray, shape (R, 4)
        Source boxes ``(y_min, x_min, y_max, x_max)``, floating point.
    dst_bbox : array of the same module, shape (R, 4)
        Destination boxes, paired row by row with ``src_bbox``.

    Returns
    -------
    array, shape (R, 4)
        ``(t_y, t_x, t_h, t_w)`` per row, in the inputs' result dtype (float32 for float32 boxes).

    Raises
    ------
    ValueError
        Shapes other than (R, 4) and (R, 4), or a box with ``y_max < y_min`` or ``x_max < x_min``.
    """
    fname = "bbox2loc"
    check_boxes(fname, "src_bbox", src_bbox)
    check_boxes(fname, "dst_bbox", dst_bbox)
    if src_bbox.shape[0] != dst_bbox.shape[0]:
        raise ValueError(f"{fname}: src_bbox and dst_bbox must hold the same number of boxes, got "
                         f"src_bbox.shape={tuple(src_bbox.shape)}, dst_bbox.shape={tuple(dst_bbox.shape)}")
    xp = backend.get_array_module(src_bbox)
    height = src_bbox[:, 2] - src_bbox[:, 0]
    width = src_bbox[:, 3] - src_bbox[:, 1]
    ctr_y = src_bbox[:, 0] + 0.5 * height
    ctr_x = src_bbox[:, 1] + 0.5 * width

    dst_height = dst_bbox[:, 2] - dst_bbox[:, 0]
    dst_width = dst_bbox[:, 3] - dst_bbox[:, 1]
    dst_ctr_y = dst_bbox[:, 0] + 0.5 * dst_height
    dst_ctr_x = dst_bbox[:, 1] + 0.5 * dst_width

    eps = xp.finfo(height.dtype).eps
    height = xp.maximum(height, eps)
    width = xp.maximum(width, eps)
    with xp.errstate(divide="ignore"):   # an empty destination box: log(0) = -inf, as in ChainerCV
        return xp.stack(((dst_ctr_y - ctr_y) / height, (dst_ctr_x - ctr_x) / width,
                         xp.log(dst_height / height), xp.log(dst_width / width)), axis=1)
