"""write_image: a CHW image array to an image file."""
import os

import numpy
from PIL import Image

from kusari.utils.atomic_write import atomic_path
from kusari.vision._checks import check_image


def write_image(img: numpy.ndarray, file, format: str | None = None) -> None:
    """Save a CHW image with values in [0, 255] through Pillow, cast to uint8 as ChainerCV does.

    A 1-channel image is saved as grayscale ('L'), 3 channels as RGB, 4 as RGBA. Integer values wrap
    modulo 256 in the cast (a label -1 becomes 255); floating-point values are truncated, and must lie
    in (-1, 256), where that cast is defined. A path is written atomically (a temporary file, then a
    rename), so it never holds a partial image.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W), C in {1, 3, 4}
        The image.
    file : str, os.PathLike or file-like object
        Where to write; the format follows the file name's extension unless ``format`` is given.
    format : str, optional
        Pillow's format name ('png', 'jpeg', 'bmp', ...); needed for a file-like object.
    """
    check_image("write_image", img, channels=(1, 3, 4))
    if img.dtype.kind == "f" and img.size and not (img.min() > -1 and img.max() < 256):
        raise ValueError(f"write_image: img holds values outside (-1, 256) (min {img.min()}, max {img.max()}, "
                         f"shape={img.shape}, dtype={img.dtype}); its values must lie in [0, 255]")
    pixels = img[0] if img.shape[0] == 1 else img.transpose(1, 2, 0)
    image = Image.fromarray(numpy.ascontiguousarray(pixels.astype(numpy.uint8)))
    if hasattr(file, "write"):
        image.save(file, format=format)
        return
    with atomic_path(os.fspath(file)) as tmp:
        image.save(tmp, format=format)
