"""generate_random_bbox: random valid bounding boxes, for tests."""
import numpy


def generate_random_bbox(n: int, img_size: tuple, min_length: float, max_length: float) -> numpy.ndarray:
    """``n`` boxes with uniformly random corners and sides in ``[min_length, max_length)``, drawn with
    ``numpy.random.uniform`` in ChainerCV's order (y_min, x_min, heights, widths), so the same seed
    gives ChainerCV's boxes.

    Parameters
    ----------
    n : int
        The number of boxes.
    img_size : tuple
        ``(H, W)``: top-left corners are drawn in ``[0, H - max_length) x [0, W - max_length)``.
    min_length, max_length : float
        The range of the heights and widths.

    Returns
    -------
    numpy.ndarray, shape (n, 4), float32
        ``(y_min, x_min, y_max, x_max)`` rows.
    """
    H, W = img_size
    y_min = numpy.random.uniform(0, H - max_length, size=(n,))
    x_min = numpy.random.uniform(0, W - max_length, size=(n,))
    y_max = y_min + numpy.random.uniform(min_length, max_length, size=(n,))
    x_max = x_min + numpy.random.uniform(min_length, max_length, size=(n,))
    return numpy.stack((y_min, x_min, y_max, x_max), axis=1).astype(numpy.float32)
