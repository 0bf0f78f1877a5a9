"""voc_colormap: the PASCAL VOC label colours."""
import numpy


def voc_colormap(labels):
    """The PASCAL VOC colour of each label: the label's bits spread, three at a time from the lowest,
    over the high bits of red, green and blue.

    Parameters
    ----------
    labels : iterable of int

    Returns
    -------
    numpy.ndarray of float32, shape (N, 3)
        RGB colours in [0, 255].
    """
    labels = numpy.asarray(list(labels), numpy.int64).reshape(-1)
    colors = numpy.zeros((len(labels), 3), numpy.int64)
    for j in range(8):
        for channel in range(3):
            bit = (labels >> (3 * j + channel)) & 1
            colors[:, channel] |= bit << (7 - j)
    return colors.astype(numpy.float32)
