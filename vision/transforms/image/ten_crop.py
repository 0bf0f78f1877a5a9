"""ten_crop: the centre and four corner crops of an image, and their mirror images."""
import numpy

from kusari.vision._checks import check_image, check_size


def ten_crop(img: numpy.ndarray, size: tuple) -> numpy.ndarray:
    """Crop ten ``size`` regions: centre, top-left, bottom-left, top-right, bottom-right, then the
    same five flipped left to right.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : tuple of two ints
        ``(out_H, out_W)``, at most ``(H, W)``.

    Returns
    -------
    numpy.ndarray, shape (10, C, out_H, out_W)
        The crops, in that order (the centre crop starts at ``((H - out_H) // 2, (W - out_W) // 2)``).
    """
    check_image("ten_crop", img)
    out_H, out_W = check_size("ten_crop", size)
    _, H, W = img.shape
    if H < out_H or W < out_W:
        raise ValueError(f"ten_crop: size {(out_H, out_W)} is larger than the image ({H}, {W}) "
                         f"(img.shape={img.shape})")
    y_center, x_center = (H - out_H) // 2, (W - out_W) // 2
    corners = ((y_center, x_center), (0, 0), (H - out_H, 0), (0, W - out_W), (H - out_H, W - out_W))
    crops = numpy.stack([img[:, y:y + out_H, x:x + out_W] for y, x in corners])
    return numpy.concatenate((crops, crops[:, :, :, ::-1]))
