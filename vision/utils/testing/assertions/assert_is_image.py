"""assert_is_image: checks ChainerCV's image convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import require


def assert_is_image(img, color: bool = True, check_range: bool = True) -> None:
    """Raise AssertionError unless ``img`` is a CHW ndarray with 3 channels (``color``) or 1, and, with
    ``check_range``, has pixels, all in [0, 255].

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image to check.
    color : bool
        Expect 3 channels (default) or 1.
    check_range : bool
        Check that every value lies in [0, 255] (default).
    """
    require(isinstance(img, numpy.ndarray), f"assert_is_image: img must be a numpy.ndarray, got {type(img).__name__}")
    require(img.ndim == 3, f"assert_is_image: img must be 3-dimensional (C, H, W), got shape {img.shape}")
    channels = 3 if color else 1
    require(img.shape[0] == channels,
            f"assert_is_image: img must have {channels} channels (color={color}), got shape {img.shape}")
    if check_range:
        require(img.size > 0, f"assert_is_image: img has no pixels to check the range of (shape {img.shape})")
        low, high = img.min(), img.max()
        require(low >= 0 and high <= 255,
                f"assert_is_image: img values must lie in [0, 255], got min {low}, max {high}")
