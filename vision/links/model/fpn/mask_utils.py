"""segm_to_mask and mask_to_segm: paste Mask R-CNN's fixed-size masks into images and crop image masks
into fixed-size targets (ChainerCV's chainercv.links.model.fpn.mask_utils).

Both go through OpenCV's resize (bilinear) whatever ``kusari.config.cv_resize_backend`` says, as
ChainerCV's do, with the masks padded by one pixel of zeros and the boxes enlarged to match, so that
OpenCV's replication of border values does not leak into the result.
"""
import numpy

import kusari
from kusari import backend
from kusari.vision import transforms
from kusari.vision._checks import check_size

_PAD = 1


def _expand_bbox(bbox, scale: float):
    """Boxes (R, 4) grown about their centres by ``scale``, computed in ``bbox``'s dtype."""
    half = (bbox[:, 2:] - bbox[:, :2]) * .5 * scale
    centre = (bbox[:, 2:] + bbox[:, :2]) * .5
    return numpy.concatenate((centre - half, centre + half), axis=1)


def _padded_boxes(bbox, segm_size: int):
    """The integer boxes (R, 4) int32 that the padded (segm_size + 2)-pixel masks cover."""
    padded = segm_size + 2 * _PAD
    return numpy.round(_expand_bbox(bbox, padded / segm_size).astype(numpy.float64)).astype(numpy.int32)


def _check_boxes(fname: str, bbox, n: int | None = None):
    bbox = backend.to_cpu(bbox)
    if not isinstance(bbox, numpy.ndarray) or bbox.ndim != 2 or bbox.shape[1] != 4 or bbox.dtype.kind != "f":
        raise ValueError(f"{fname}: bbox must be a float (R, 4) array of (y_min, x_min, y_max, x_max), got "
                         f"{getattr(bbox, 'shape', None)} {getattr(bbox, 'dtype', type(bbox).__name__)}")
    if n is not None and len(bbox) != n:
        raise ValueError(f"{fname}: bbox must have one row per mask ({n}), got bbox.shape={bbox.shape}")
    return bbox


def _resize_cv2(img, size):
    with kusari.using_config("cv_resize_backend", "cv2"):
        return transforms.resize(img, size)


def segm_to_mask(segm, bbox, size):
    """Paste each RoI's mask probabilities into a full-size boolean mask.

    Mask ``i`` (S x S, padded to S + 2) is resized to box ``i`` enlarged by (S + 2) / S and rounded to
    integers, thresholded at 0.5 and pasted at the box, cut to the image. A box whose rounded, padded
    height or width is zero or negative (inside out: a box the head placed outside the image) leaves
    its mask empty; ChainerCV 0.13.1 skips only zero sizes and fails in OpenCV on negative ones.

    Parameters
    ----------
    segm : numpy.ndarray, shape (R, S, S)
        Probabilities (float32) in [0, 1].
    bbox : numpy.ndarray, shape (R, 4)
        ``(y_min, x_min, y_max, x_max)`` in the image, float32.
    size : (H, W)
        The image's size.

    Returns
    -------
    numpy.ndarray, shape (R, H, W), bool
    """
    fname = "segm_to_mask"
    H, W = check_size(fname, size)
    segm = backend.to_cpu(segm)
    if not isinstance(segm, numpy.ndarray) or segm.ndim != 3 or segm.shape[1] != segm.shape[2] \
            or segm.dtype.kind != "f":
        raise ValueError(f"{fname}: segm must be a float (R, S, S) array, got "
                         f"{getattr(segm, 'shape', None)} {getattr(segm, 'dtype', type(segm).__name__)}")
    bbox = _check_boxes(fname, bbox, len(segm))
    segm_size = segm.shape[1]
    mask = numpy.zeros((len(bbox), H, W), dtype=bool)
    boxes = _padded_boxes(bbox, segm_size)
    canvas = numpy.zeros((1, segm_size + 2 * _PAD, segm_size + 2 * _PAD), dtype=numpy.float32)
    for i in numpy.flatnonzero(((boxes[:, 2:] - boxes[:, :2]) > 0).all(axis=1)):
        y0, x0, y1, x1 = boxes[i].tolist()
        canvas[0, _PAD:-_PAD, _PAD:-_PAD] = segm[i]
        crop = _resize_cv2(canvas, (y1 - y0, x1 - x0))[0] > 0.5
        top, left = min(max(y0, 0), H), min(max(x0, 0), W)
        bottom, right = min(max(y1, 0), H), min(max(x1, 0), W)
        mask[i, top:bottom, left:right] = crop[top - y0:bottom - y0, left - x0:right - x0]
    return mask


def mask_to_segm(mask, bbox, segm_size: int, index=None):
    """Crop each box's region out of its instance mask and resize it to ``segm_size`` squared: the
    targets of Mask R-CNN's mask head.

    Box ``r`` (enlarged by (S + 2) / S and rounded) cuts mask ``index[r]`` (zero outside the image),
    the cut is resized to S + 2 pixels a side and truncated to integers (only fully covered pixels
    stay 1), and its one-pixel border dropped. A box outside the image gives zeros.

    Parameters
    ----------
    mask : numpy.ndarray, shape (N, H, W), bool
    bbox : array, shape (R, 4)
        ``(y_min, x_min, y_max, x_max)``, float32.
    segm_size : int
        S.
    index : array of ints, shape (R,), optional
        The mask of each box (default: box ``r`` takes mask ``r``).

    Returns
    -------
    numpy.ndarray, shape (R, S, S), float32, values in {0, 1}
    """
    fname = "mask_to_segm"
    mask = backend.to_cpu(mask)
    if not isinstance(mask, numpy.ndarray) or mask.ndim != 3:
        raise ValueError(f"{fname}: mask must be an (N, H, W) array, got {getattr(mask, 'shape', None)}")
    bbox = _check_boxes(fname, bbox)
    index = numpy.arange(len(bbox)) if index is None else backend.to_cpu(index)
    if index.shape != (len(bbox),) or (len(index) and not 0 <= int(index.min()) <= int(index.max()) < len(mask)):
        raise ValueError(f"{fname}: index must hold one mask index in [0, {len(mask)}) per box "
                         f"(bbox.shape={bbox.shape}), got index.shape={index.shape}")
    _, H, W = mask.shape
    padded = segm_size + 2 * _PAD
    boxes = _padded_boxes(bbox, segm_size)
    segm = numpy.zeros((len(bbox), segm_size, segm_size), dtype=numpy.float32)
    clipped = numpy.stack((numpy.clip(boxes[:, 0], 0, H), numpy.clip(boxes[:, 1], 0, W),
                           numpy.clip(boxes[:, 2], 0, H), numpy.clip(boxes[:, 3], 0, W)), axis=1)
    for r in numpy.flatnonzero(((clipped[:, 2:] - clipped[:, :2]) > 0).all(axis=1)):
        y0, x0, y1, x1 = boxes[r].tolist()
        top, left, bottom, right = clipped[r].tolist()
        crop = numpy.zeros((1, y1 - y0, x1 - x0), dtype=numpy.float32)
        crop[0, top - y0:bottom - y0, left - x0:right - x0] = mask[index[r], top:bottom, left:right]
        resized = _resize_cv2(crop, (padded, padded))[0].astype(numpy.int32)
        segm[r] = resized[_PAD:-_PAD, _PAD:-_PAD]
    return segm
