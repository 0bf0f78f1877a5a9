"""read_image: an image file as a CHW RGB array, with OpenCV or Pillow (``kusari.config.cv_read_image_backend``)."""
import io

import numpy
from PIL import Image, UnidentifiedImageError

from kusari.vision import _backend
from kusari.vision.utils.image._complete import check_complete, read_bytes

_ALPHA = (None, "ignore", "blend_with_white", "blend_with_black")


def _remove_alpha(img: numpy.ndarray, alpha) -> numpy.ndarray:
    """An (H, W, 3) image from an (H, W, 4) one whose last channel is alpha, as ``alpha`` says."""
    if alpha is None:
        raise ValueError("read_image: the image has an alpha channel (RGBA) but alpha is None; pass "
                         "alpha='ignore', 'blend_with_white' or 'blend_with_black'")
    color = img[:, :, :3]
    if alpha == "ignore":
        return color
    opacity = img[:, :, 3:] / 255
    if alpha == "blend_with_white":
        return color * opacity + 255 * (1 - opacity)
    return color * opacity


def _read_cv2(data: bytes, name: str, dtype, color: bool, alpha) -> numpy.ndarray:
    cv2 = _backend.cv2_module()
    if not color:
        flag = cv2.IMREAD_GRAYSCALE
    elif alpha is None:
        flag = cv2.IMREAD_COLOR
    else:
        flag = cv2.IMREAD_UNCHANGED   # keeps an alpha channel: (H, W, 4) BGRA
    img = cv2.imdecode(numpy.frombuffer(data, dtype=numpy.uint8), flag)  # as cv2.imread decodes
    if img is None:
        raise ValueError(f"read_image: OpenCV cannot read {name} as an image")
    if img.ndim == 2:
        return img[numpy.newaxis].astype(dtype)
    if img.shape[2] == 4:
        img = _remove_alpha(img, alpha)
    return img[:, :, ::-1].transpose(2, 0, 1).astype(dtype)   # BGR -> RGB, HWC -> CHW


def _read_pil(data: bytes, name: str, dtype, color: bool, alpha) -> numpy.ndarray:
    try:
        with Image.open(io.BytesIO(data)) as f:
            if not color:
                mode = "L"
            else:
                mode = "RGBA" if f.mode == "RGBA" else "RGB"
            img = numpy.asarray(f.convert(mode), dtype=dtype)
    except (UnidentifiedImageError, OSError, SyntaxError) as e:  # Pillow's decoding errors
        raise ValueError(f"read_image: Pillow cannot read {name} as an image ({e})") from e
    if img.ndim == 2:
        return img[numpy.newaxis]
    if img.shape[2] == 4:
        img = _remove_alpha(img, alpha).astype(dtype, copy=False)
    return img.transpose(2, 0, 1)


def read_image(file, dtype=numpy.float32, color: bool = True, alpha: str | None = None) -> numpy.ndarray:
    """Read an image file as a CHW array with values in [0, 255], RGB when ``color``.

    The library is ``kusari.config.cv_read_image_backend``: ``'cv2'`` (``cv2.imread`` /
    ``cv2.imdecode``), ``'PIL'`` (``PIL.Image.open``), or None for OpenCV when it is installed. They
    may differ slightly (JPEG decoding, grayscale conversion). As in ChainerCV, with OpenCV an
    ``alpha`` option makes a grayscale file come back with 1 channel, and the alpha blend is computed
    in float64 before the cast to ``dtype``; with Pillow it is computed in ``dtype`` (float32 by
    default), and only an RGBA-mode file has alpha.

    Parameters
    ----------
    file : str, os.PathLike or file-like object
        The image file.
    dtype : numpy dtype
        Of the result (default float32).
    color : bool
        RGB (3 channels, default) or grayscale (1 channel).
    alpha : {None, 'ignore', 'blend_with_white', 'blend_with_black'}
        What to do with an alpha channel: None (default) refuses RGBA images with a ValueError;
        'ignore' drops it; the blends composite the image onto white or black.

    Returns
    -------
    numpy.ndarray, shape (3, H, W) or (1, H, W)
        The image, of ``dtype``.

    Raises
    ------
    FileNotFoundError
        No file at that path.
    ValueError
        The file is not an image, or does not decode completely: a truncated JPEG, PNG or BMP, or
        a PNG whose chunk fails its CRC, is refused with either backend (decoders fill the
        missing part instead). The message names the file.
    """
    if alpha not in _ALPHA:
        raise ValueError(f"read_image: alpha must be one of {_ALPHA}, got {alpha!r}")
    read = _read_cv2 if _backend.backend("cv_read_image_backend", "read_image") == "cv2" else _read_pil
    data, name = read_bytes(file, "read_image")
    check_complete(data, name, "read_image")
    return read(data, name, dtype, color, alpha)
