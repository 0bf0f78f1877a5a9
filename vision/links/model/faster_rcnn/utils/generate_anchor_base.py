"""generate_anchor_base: the anchor boxes of one feature-map cell, for every aspect ratio and scale."""
import numpy


def generate_anchor_base(base_size=16, ratios=[0.5, 1, 2], anchor_scales=[8, 16, 32]) -> numpy.ndarray:
    """Anchor boxes centred on ``(base_size / 2, base_size / 2)``, one per (ratio, scale) pair.

    The anchor of ratio ``r`` and scale ``s`` has height ``base_size * s * sqrt(r)`` and width
    ``base_size * s * sqrt(1 / r)``: its area is ``(base_size * s) ** 2`` whatever ``r``, and
    ``r`` is its height over its width (ChainerCV's documentation says width over height; its
    formula, kept here, gives this). Row ``i * len(anchor_scales) + j`` is the anchor of
    ``ratios[i]`` and ``anchor_scales[j]``.

    Parameters
    ----------
    base_size : number
        Side of the reference window (the feature stride, in image pixels).
    ratios : sequence of positive floats
        Aspect ratios.
    anchor_scales : sequence of positive numbers
        Scales of the reference window.

    Returns
    -------
    numpy.ndarray of float32, shape (len(ratios) * len(anchor_scales), 4)
        ``(y_min, x_min, y_max, x_max)`` per anchor.

    Raises
    ------
    ValueError
        A ratio or a scale that is not a positive number, or a non-positive ``base_size``.
    """
    fname = "generate_anchor_base"
    ratios = _positive(fname, "ratios", ratios)
    anchor_scales = _positive(fname, "anchor_scales", anchor_scales)
    _positive(fname, "base_size", [base_size])
    center = base_size / 2.
    # the same float64 products as ChainerCV's loop, rounded once into float32
    h = base_size * anchor_scales[None, :] * numpy.sqrt(ratios[:, None])
    w = base_size * anchor_scales[None, :] * numpy.sqrt(1. / ratios[:, None])
    anchor_base = numpy.stack((center - h / 2., center - w / 2., center + h / 2., center + w / 2.), axis=2)
    return anchor_base.reshape(-1, 4).astype(numpy.float32)


def _positive(fname: str, argname: str, values) -> numpy.ndarray:
    try:
        array = numpy.asarray(values, dtype=numpy.float64)
    except (TypeError, ValueError):
        raise ValueError(f"{fname}: {argname} must be a sequence of positive numbers, got {values!r}") from None
    if array.ndim != 1 or not bool(numpy.all(array > 0)):
        raise ValueError(f"{fname}: {argname} must be a sequence of positive numbers, got {values!r}")
    return array
