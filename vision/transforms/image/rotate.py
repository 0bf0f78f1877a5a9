"""rotate: an image by an angle in degrees, with OpenCV or Pillow (``kusari.config.cv_rotate_backend``)."""
import math

import numpy
from PIL import Image

from kusari.vision import _backend
from kusari.vision._checks import check_image
from kusari.vision.transforms.image._warp_affine import DTYPES, warp_affine

_INTERPOLATIONS = (_backend.NEAREST, _backend.BILINEAR, _backend.BICUBIC)


def _rotate_cv2(img: numpy.ndarray, angle: float, expand: bool, fill, interpolation) -> numpy.ndarray:
    if interpolation not in _INTERPOLATIONS:
        _backend.cv2_interpolation("rotate", interpolation, _INTERPOLATIONS)   # raises, naming the choices
    if img.dtype not in DTYPES:
        raise TypeError(f"rotate: the cv2 backend (OpenCV's warpAffine) takes uint8, uint16, int16, float32 or "
                        f"float64 images, got {img.dtype} (img.shape={img.shape}); use the 'PIL' backend")
    C, H, W = img.shape
    matrix = _backend.cv2_module().getRotationMatrix2D((W / 2, H / 2), angle, 1)
    if expand:
        # the rotated corners' extent, as Pillow sizes an expanded rotation (same float operations as ChainerCV)
        xs = numpy.array([0, 0, W, W], dtype=numpy.float64)
        ys = numpy.array([0, H, H, 0], dtype=numpy.float64)
        yy = matrix[1, 0] * xs + matrix[1, 1] * ys + matrix[1, 2]
        xx = matrix[0, 0] * xs + matrix[0, 1] * ys + matrix[0, 2]
        out_H = int(math.ceil(yy.max()) - math.floor(yy.min()))
        out_W = int(math.ceil(xx.max()) - math.floor(xx.min()))
        matrix[1, 2] += out_H / 2 - H / 2
        matrix[0, 2] += out_W / 2 - W / 2
    else:
        out_H, out_W = H, W
    method = {_backend.NEAREST: "nearest", _backend.BILINEAR: "linear", _backend.BICUBIC: "cubic"}[interpolation]
    return warp_affine(img, matrix, out_H, out_W, method, fill)


def _rotate_pil(img: numpy.ndarray, angle: float, expand: bool, fill, interpolation) -> numpy.ndarray:
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"rotate: interpolation must be PIL.Image.NEAREST (0), BILINEAR (2) or BICUBIC (3), "
                         f"got {interpolation!r}")
    # Pillow rotates one float32 ('F' mode) channel at a time
    out = numpy.stack([
        numpy.asarray(Image.fromarray(numpy.ascontiguousarray(channel, dtype=numpy.float32)).rotate(
            angle, expand=expand, fillcolor=fill, resample=interpolation))
        for channel in img])
    if img.dtype.kind in "iu":
        out = numpy.round(out)
    return out.astype(img.dtype)


def rotate(img: numpy.ndarray, angle: float, expand: bool = True, fill: float = 0,
           interpolation: int = Image.BILINEAR) -> numpy.ndarray:
    """Rotate a CHW image counter-clockwise by ``angle`` degrees about its centre.

    The library is ``kusari.config.cv_rotate_backend``: ``'cv2'`` (OpenCV 4's ``cv2.warpAffine``, which
    ChainerCV ran, reproduced bit for bit whatever OpenCV is installed: OpenCV 5 changed its arithmetic),
    ``'PIL'`` (``Image.rotate`` on each channel as a float32 image, rounded back for integer dtypes), or
    None for OpenCV when it is installed.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    angle : float
        Counter-clockwise angle in degrees.
    expand : bool
        Enlarge the output so that it holds the whole rotated image; else keep ``(H, W)``.
    fill : float
        The value of the pixels that come from outside the image, in every channel.
        (ChainerCV's cv2 path fills only the first channel with it, OpenCV's reading of a bare number;
        both backends here fill every channel, as its PIL path does.)
    interpolation : int
        Pillow's ``NEAREST`` (0), ``BILINEAR`` (2, default) or ``BICUBIC`` (3).

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W)
        The rotated image, of ``img``'s dtype; ``(out_H, out_W) = (H, W)`` unless ``expand``.
    """
    check_image("rotate", img)
    if not isinstance(fill, (int, float, numpy.integer, numpy.floating)) or isinstance(fill, bool):
        raise TypeError(f"rotate: fill must be a real number, got {fill!r}")
    if _backend.backend("cv_rotate_backend", "rotate") == "cv2":
        return _rotate_cv2(img, angle, expand, fill, interpolation)
    return _rotate_pil(img, angle, expand, fill, interpolation)
