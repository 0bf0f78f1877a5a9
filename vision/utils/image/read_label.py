"""read_label: a label image file (one class index per pixel) as an (H, W) array."""
import io

import numpy
from PIL import Image, UnidentifiedImageError

from kusari.vision.utils.image._complete import check_complete, read_bytes


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

    Raises
    ------
    FileNotFoundError
        No file at that path.
    ValueError
        The file is not an image or does not decode completely (see ``read_image``); the
        message names the file.
    """
    data, name = read_bytes(file, "read_label")
    check_complete(data, name, "read_label")
    try:
        with Image.open(io.BytesIO(data)) as f:
            return numpy.asarray(f.convert("P"), dtype=dtype)
    except (UnidentifiedImageError, OSError, SyntaxError) as e:  # Pillow's decoding errors
        raise ValueError(f"read_label: Pillow cannot read {name} as an image ({e})") from e
