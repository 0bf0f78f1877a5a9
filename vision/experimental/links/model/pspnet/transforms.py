"""convolution_crop: overlapping crops of one size taken at a fixed stride over an image, as PSPNet tiles
large images (ChainerCV's chainercv.experimental.links.model.pspnet.convolution_crop)."""
import math

import numpy

from kusari.vision._checks import check_image, check_size


def _starts(length: int, size: int, stride: int) -> numpy.ndarray:
    """Where the crops along one axis start: as few as cover ``length`` (at least one), centred (an odd
    overhang puts its extra pixel before the image)."""
    n = max(math.ceil((length - size) / stride) + 1, 1)
    return numpy.arange(n) * stride + (length - size - stride * (n - 1)) // 2


def _slices(starts: numpy.ndarray, size: int, length: int) -> tuple[list, list]:
    """The image region of each crop and where it lies in the crop."""
    stops = starts + size
    image = [slice(int(a), int(b)) for a, b in zip(numpy.maximum(starts, 0), numpy.minimum(stops, length))]
    crop = [slice(int(a), int(b)) for a, b in zip(-numpy.minimum(starts, 0), size - numpy.maximum(stops - length, 0))]
    return image, crop


def convolution_crop(img: numpy.ndarray, size, stride, return_param: bool = False):
    """Crops of ``size`` taken every ``stride`` pixels, centred on the image, covering all of it.

    Along each axis the crops are as few as cover the image (at least one); the parts of a crop
    outside the image are 0.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
        The image.
    size : tuple of two ints
        ``(height, width)`` of each crop.
    stride : tuple of two ints
        Vertical and horizontal steps between neighbouring crops.
    return_param : bool
        Also return where each crop came from.

    Returns
    -------
    numpy.ndarray, shape (N, C, height, width), or (numpy.ndarray, dict)
        The crops, row by row, of ``img``'s dtype. With ``return_param``, also a dict of lists of
        N slices: ``y_slices`` and ``x_slices`` (the region of ``img`` each crop holds) and
        ``crop_y_slices`` and ``crop_x_slices`` (where that region lies in the crop), so that
        ``crops[i][:, crop_y_slices[i], crop_x_slices[i]] == img[:, y_slices[i], x_slices[i]]``.
    """
    check_image("convolution_crop", img)
    size = check_size("convolution_crop", size)
    stride = check_size("convolution_crop", stride, "stride")
    if min(size) < 1 or min(stride) < 1:
        raise ValueError(f"convolution_crop: size and stride must be positive, got size={size}, stride={stride}")
    C, H, W = img.shape
    y_starts, x_starts = _starts(H, size[0], stride[0]), _starts(W, size[1], stride[1])
    # every crop lies inside the image padded by zeros at both ends: a strided window view of it
    top, left = -int(y_starts[0]), -int(x_starts[0])
    bottom, right = int(y_starts[-1]) + size[0] - H, int(x_starts[-1]) + size[1] - W
    padded = numpy.pad(img, ((0, 0), (top, bottom), (left, right)))
    windows = numpy.lib.stride_tricks.sliding_window_view(padded, size, axis=(1, 2))
    windows = windows[:, y_starts + top][:, :, x_starts + left]          # (C, ny, nx, height, width)
    crops = numpy.ascontiguousarray(windows.transpose(1, 2, 0, 3, 4)).reshape(-1, C, *size)
    if not return_param:
        return crops
    y_slices, crop_y_slices = _slices(y_starts, size[0], H)
    x_slices, crop_x_slices = _slices(x_starts, size[1], W)
    nx = len(x_starts)
    param = {"y_slices": [s for s in y_slices for _ in range(nx)], "x_slices": x_slices * len(y_starts),
             "crop_y_slices": [s for s in crop_y_slices for _ in range(nx)],
             "crop_x_slices": crop_x_slices * len(y_starts)}
    return crops, param
