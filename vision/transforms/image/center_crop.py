"""center_crop: the central region of an image."""
import numpy

from kusari.vision._checks import check_image, check_size


def center_crop(img: numpy.ndarray, size: tuple, return_param: bool = False, copy: bool = False):
    """Crop the ``size`` region whose centre is the image's centre.

    The offsets are ``round((H - out_H) / 2)`` and ``round((W - out_W) / 2)`` with Python's
    round-half-to-even, as in ChainerCV.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : tuple of two ints
        ``(out_H, out_W)``, at most ``(H, W)``.
    return_param : bool
        Also return the slices.
    copy : bool
        Return a copy instead of a view of ``img``.

    Returns
    -------
    numpy.ndarray, shape (C, out_H, out_W), or (numpy.ndarray, dict)
        The crop; with ``return_param``, also ``{'y_slice': slice, 'x_slice': slice}`` such that
        ``crop = img[:, y_slice, x_slice]``.
    """
    check_image("center_crop", img)
    out_H, out_W = check_size("center_crop", size)
    _, H, W = img.shape
    if out_H > H or out_W > W:
        raise ValueError(f"center_crop: size {(out_H, out_W)} is larger than the image ({H}, {W}) "
                         f"(img.shape={img.shape})")
    y_offset = int(round((H - out_H) / 2))
    x_offset = int(round((W - out_W) / 2))
    y_slice = slice(y_offset, y_offset + out_H)
    x_slice = slice(x_offset, x_offset + out_W)
    img = img[:, y_slice, x_slice]
    if copy:
        img = img.copy()
    if return_param:
        return img, {"y_slice": y_slice, "x_slice": x_slice}
    return img
