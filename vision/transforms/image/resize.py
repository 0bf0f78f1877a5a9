"""resize: an image to a given height and width, with OpenCV or Pillow (``kusari.config.cv_resize_backend``)."""
import numpy
from PIL import Image

from kusari.vision import _backend
from kusari.vision._checks import check_image, check_size

_CV2_INTERPOLATIONS = (_backend.NEAREST, _backend.BILINEAR, _backend.BICUBIC, _backend.LANCZOS)


def _resize_cv2(img: numpy.ndarray, H: int, W: int, interpolation) -> numpy.ndarray:
    flag = _backend.cv2_interpolation("resize", interpolation, _CV2_INTERPOLATIONS)
    out = _backend.cv2_module().resize(img.transpose(1, 2, 0), dsize=(W, H), interpolation=flag)
    # OpenCV returns a 2-D array for a one-channel image
    return out.reshape(H, W, img.shape[0]).transpose(2, 0, 1)


def _resize_pil(img: numpy.ndarray, H: int, W: int, interpolation) -> numpy.ndarray:
    # Pillow resizes one float32 ('F' mode) channel at a time; other dtypes are cast in and out
    out = numpy.empty((img.shape[0], H, W), dtype=img.dtype)
    for channel, out_channel in zip(img, out):
        plane = Image.fromarray(numpy.ascontiguousarray(channel, dtype=numpy.float32))
        out_channel[:] = numpy.asarray(plane.resize((W, H), resample=interpolation))
    return out


def resize(img: numpy.ndarray, size: tuple, interpolation: int = Image.BILINEAR) -> numpy.ndarray:
    """Resize a CHW image to ``size``.

    The library is ``kusari.config.cv_resize_backend``: ``'cv2'`` (``cv2.resize`` on the HWC view),
    ``'PIL'`` (``Image.resize`` on each channel as a float32 image), or None for OpenCV when it is
    installed. The two give slightly different values (ChainerCV's pretrained models were trained with
    OpenCV's).

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image (float32 by convention; OpenCV also takes uint8, uint16, int16 and float64).
    size : tuple of two ints
        ``(out_H, out_W)``.
    interpolation : int
        Pillow's ``NEAREST`` (0), ``BILINEAR`` (2, default), ``BICUBIC`` (3) or ``LANCZOS`` (1);
        the PIL backend also takes ``BOX`` (4) and ``HAMMING`` (5).

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W)
        The resized image, of ``img``'s dtype (a transposed view of OpenCV's HWC result with cv2).
    """
    check_image("resize", img)
    H, W = check_size("resize", size)
    if img.shape[0] == 0:
        return numpy.empty((0, H, W), dtype=img.dtype)
    if _backend.backend("cv_resize_backend", "resize") == "cv2":
        return _resize_cv2(img, H, W, interpolation)
    return _resize_pil(img, H, W, interpolation)
