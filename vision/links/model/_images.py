"""The input check of the models' ``predict``: CHW RGB images, taken as float32."""
import numpy

from kusari.vision import _checks


def predict_image(fname: str, img, index: int) -> numpy.ndarray:
    """``img`` (``imgs[index]`` of ``fname``'s ``predict``) as a float32 ``(3, H, W)`` array.

    Integer and float64 images are converted to float32 (the models' dtype); an HWC image, a
    non-numeric one or one without 3 channels is refused, naming ``fname`` and the shape.
    """
    _checks.check_image(fname, img, f"imgs[{index}]", (3,))
    if img.shape[1] == 0 or img.shape[2] == 0:
        raise ValueError(f"{fname}: imgs[{index}] is empty (shape={img.shape})")
    return img if img.dtype == numpy.float32 else img.astype(numpy.float32)
