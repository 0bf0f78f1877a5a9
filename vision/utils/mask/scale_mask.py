"""scale_mask: resize instance masks so that the shorter side has a given length, box by box."""
import numpy
import PIL.Image

from kusari import backend
from kusari.vision.utils.mask.mask_iou import check_masks


def scale_mask(mask, bbox, size: int):
    """Scale masks so that the shorter image side becomes ``size``, keeping the aspect ratio.

    Only the region inside each mask's box is resized (nearest neighbour, through
    ``kusari.vision.transforms.resize`` and so its configured backend), which is much cheaper
    than resizing whole sparse masks. A box of zero height or width leaves its mask empty
    (ChainerCV 0.13.1 fails on it in OpenCV).

    Parameters
    ----------
    mask : numpy.ndarray or cupy.ndarray of bool, shape (R, H, W)
    bbox : array, shape (R, 4)
        The boxes around the masks, usually ``mask_to_bbox(mask)``; not modified.
    size : int
        Length of the shorter side after scaling.

    Returns
    -------
    array of bool, shape (R, H', W')
        With ``(H', W') = (size, int(size * W / H))`` when H < W, else ``(int(size * H / W), size)``.
    """
    from kusari.vision.transforms import resize     # the transforms import this package's utils

    check_masks("scale_mask", "mask", mask)
    if bbox.ndim != 2 or bbox.shape != (mask.shape[0], 4):
        raise ValueError(f"scale_mask: bbox must have shape (R, 4) = ({mask.shape[0]}, 4) like mask "
                         f"(mask.shape={tuple(mask.shape)}), got bbox.shape={tuple(bbox.shape)}")
    xp = backend.get_array_module(mask)
    mask = backend.to_cpu(mask)
    bbox = backend.to_cpu(bbox)
    n, h, w = mask.shape
    if h < w:
        out_size = (size, int(size * w / h))
        scale = size / h
    else:
        out_size = (int(size * h / w), size)
        scale = size / w
    box = numpy.concatenate([numpy.floor(bbox[:, :2]), numpy.ceil(bbox[:, 2:])], axis=1).astype(numpy.int32)
    scaled = box * scale
    scaled = numpy.concatenate([numpy.floor(scaled[:, :2]), numpy.ceil(scaled[:, 2:])], axis=1).astype(numpy.int32)
    out = numpy.zeros((n,) + out_size, bool)
    for i, ((y0, x0, y1, x1), (sy0, sx0, sy1, sx1)) in enumerate(zip(box, scaled)):
        if y1 <= y0 or x1 <= x0 or sy1 <= sy0 or sx1 <= sx0:
            continue
        crop = mask[i, y0:y1, x0:x1][None].astype(numpy.float32)
        scaled_crop = resize(crop, (int(sy1 - sy0), int(sx1 - sx0)), interpolation=PIL.Image.NEAREST)[0]
        # a rounded-up box end may pass the rounded-down output size by a pixel: clip it
        region = out[i, sy0:sy1, sx0:sx1]
        region[...] = scaled_crop[:region.shape[0], :region.shape[1]]
    return xp.asarray(out)
