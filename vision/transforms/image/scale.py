"""scale: resize an image so that its shorter (or longer) side has a given length."""
import numpy
from PIL import Image

from kusari.vision._checks import check_image
from kusari.vision.transforms.image.resize import resize


def scale(img: numpy.ndarray, size: int, fit_short: bool = True,
          interpolation: int = Image.BILINEAR) -> numpy.ndarray:
    """Resize ``img``, keeping its aspect ratio, so that its shorter side (``fit_short``) or its longer
    side becomes ``size``; the other side is truncated to an int.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : int
        The new length of the side chosen by ``fit_short``.
    fit_short : bool
        Fit the shorter side (default) or the longer one.
    interpolation : int
        Pillow's resampling constant for :func:`resize` (default ``BILINEAR``).

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W)
        The resized image, or ``img`` itself when that side already has length ``size``.
    """
    check_image("scale", img)
    _, H, W = img.shape
    short, long_ = (H, W) if H <= W else (W, H)
    if (short if fit_short else long_) == size:
        return img
    if (H < W) == fit_short:
        out_size = (size, int(size * W / H))
    else:
        out_size = (int(size * H / W), size)
    return resize(img, out_size, interpolation)
