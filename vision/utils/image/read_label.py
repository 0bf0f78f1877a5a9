"""read_label: a label image file (one class index per pixel) as an (H, W) array."""
import numpy
from PIL import Image


def read_label(file, dtype=numpy.int32) -> numpy.ndarray:
    """Read a label image: Pillow converts it to palette mode ('P') and each pixel's palette index
    is its label (for a 'P' or 'L' file, the stored value).

    Parameters
    ----------
    file : str, os.PathLike or file-like object
        The image file.
    dtype : numpy dtype
        Of the result (default int32).

    Returns
    -------
    numpy.ndarray, shape (H, W)
        The labels, of ``dtype``.
    """
    with Image.open(file) as f:
        return numpy.asarray(f.convert("P"), dtype=dtype)
