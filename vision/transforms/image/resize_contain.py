"""resize_contain: fit an image into a canvas of a given size, keeping its aspect ratio, and pad it."""
import numpy
from PIL import Image

from kusari.vision._canvas import filled
from kusari.vision._checks import check_image, check_size
from kusari.vision.transforms.image.resize import resize


def resize_contain(img: numpy.ndarray, size: tuple, fill=0, interpolation: int = Image.BILINEAR,
                   return_param: bool = False):
    """Place ``img`` in the centre of a ``size`` canvas, shrinking it first (aspect ratio kept) if it
    does not fit.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : tuple of two ints
        ``(out_H, out_W)``, the canvas.
    fill : float, sequence of C floats, or numpy.ndarray of shape (C, 1, 1)
        The value of the padding.
    interpolation : int
        Pillow's resampling constant for :func:`resize` (default ``BILINEAR``).
    return_param : bool
        Also return where the image went.

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W), or (numpy.ndarray, dict)
        The canvas, of ``img``'s dtype; with ``return_param``, also ``{'y_offset': int,
        'x_offset': int, 'scaled_size': (int, int)}``: the top-left corner of the image on the canvas
        and its size there.
    """
    check_image("resize_contain", img)
    out_H, out_W = check_size("resize_contain", size)
    C, H, W = img.shape
    scale = min(min(out_H / H, out_W / W), 1)
    scaled_size = (int(H * scale), int(W * scale))
    if scale < 1:
        img = resize(img, scaled_size, interpolation)
    _, H, W = img.shape
    y_offset = (out_H - H) // 2 if H < out_H else 0
    x_offset = (out_W - W) // 2 if W < out_W else 0
    out = filled("resize_contain", (C, out_H, out_W), img.dtype, fill)
    out[:, y_offset:y_offset + H, x_offset:x_offset + W] = img
    if return_param:
        return out, {"y_offset": y_offset, "x_offset": x_offset, "scaled_size": scaled_size}
    return out
