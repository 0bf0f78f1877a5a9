"""SSD's data augmentation: photometric distortion, constrained random crops and resizing with a random
interpolation (W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016, section 2.2).

The random draws come from Python's ``random`` module in ChainerCV's order, so ``random.seed``
reproduces ChainerCV's results.
"""
import random

import numpy

from kusari.vision import _backend, _checks
from kusari.vision.utils import bbox_iou

_DEFAULT_CONSTRAINTS = ((0.1, None), (0.3, None), (0.5, None), (0.7, None), (0.9, None), (None, 1))


def _cv2(fname: str):
    cv2 = _backend.cv2_module()
    if cv2 is None:
        raise ImportError(f"{fname} needs OpenCV: pip install 'kusari[opencv]'")
    return cv2


def _scaled(img, alpha=1, beta=0):
    """``img * alpha + beta`` in float64, clipped to [0, 255] and truncated to uint8."""
    return numpy.clip(img.astype(numpy.float64) * alpha + beta, 0, 255).astype(numpy.uint8)


def random_distort(img: numpy.ndarray, brightness_delta: float = 32, contrast_low: float = 0.5,
                   contrast_high: float = 1.5, saturation_low: float = 0.5, saturation_high: float = 1.5,
                   hue_delta: int = 18) -> numpy.ndarray:
    """Randomly change an image's brightness, contrast, saturation and hue (SSD's color augmentation).

    On the image as 8-bit BGR (values truncated to integers): with probability 1/2 each, add a
    brightness offset drawn from ``[-brightness_delta, brightness_delta]``; then, in a random one of
    the orders contrast-saturation-hue and saturation-hue-contrast, each with probability 1/2,
    multiply by a contrast factor from ``[contrast_low, contrast_high]``, multiply the HSV
    saturation by a factor from ``[saturation_low, saturation_high]``, add to the HSV hue (OpenCV's
    0..179) an integer from ``[-hue_delta, hue_delta]``. Needs OpenCV.

    Parameters
    ----------
    img : numpy.ndarray, shape (3, H, W)
        RGB image, values in [0, 255].
    brightness_delta, contrast_low, contrast_high, saturation_low, saturation_high : float
    hue_delta : int

    Returns
    -------
    numpy.ndarray, float32, shape (3, H, W)
        The distorted RGB image (integer values).
    """
    fname = "random_distort"
    _checks.check_image(fname, img, channels=(3,))
    cv2 = _cv2(fname)
    cv_img = img[::-1].transpose((1, 2, 0)).astype(numpy.uint8)

    def brightness(cv_img):
        return _scaled(cv_img, beta=random.uniform(-brightness_delta, brightness_delta)) \
            if random.randrange(2) else cv_img

    def contrast(cv_img):
        return _scaled(cv_img, alpha=random.uniform(contrast_low, contrast_high)) if random.randrange(2) else cv_img

    def saturation(cv_img):
        if not random.randrange(2):
            return cv_img
        hsv = cv2.cvtColor(cv_img, cv2.COLOR_BGR2HSV)
        hsv[:, :, 1] = _scaled(hsv[:, :, 1], alpha=random.uniform(saturation_low, saturation_high))
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)

    def hue(cv_img):
        if not random.randrange(2):
            return cv_img
        hsv = cv2.cvtColor(cv_img, cv2.COLOR_BGR2HSV)
        hsv[:, :, 0] = (hsv[:, :, 0].astype(numpy.int64) + random.randint(-hue_delta, hue_delta)) % 180
        return cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)

    cv_img = brightness(cv_img)
    steps = (contrast, saturation, hue) if random.randrange(2) else (saturation, hue, contrast)
    for step in steps:
        cv_img = step(cv_img)
    return numpy.ascontiguousarray(cv_img.astype(numpy.float32).transpose((2, 0, 1))[::-1])


def random_crop_with_bbox_constraints(img: numpy.ndarray, bbox: numpy.ndarray, min_scale: float = 0.3,
                                      max_scale: float = 1, max_aspect_ratio: float = 2, constraints=None,
                                      max_trial: int = 50, return_param: bool = False):
    """Crop an image at random so that the crop's IoU with the boxes meets one of the constraints (SSD).

    For each constraint ``(min_iou, max_iou)`` (None: 0 or 1), up to ``max_trial`` crops are drawn
    (a scale ``s`` from ``[min_scale, max_scale]``, an aspect ratio from
    ``[max(1 / max_aspect_ratio, s^2), min(max_aspect_ratio, 1 / s^2)]``, then a position) until
    one has ``min_iou <= IoU <= max_iou`` with every box; the result is chosen at random among
    the whole image and the crop each constraint found. With no boxes the image is kept.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
    bbox : numpy.ndarray, shape (R, 4)
        Boxes (y_min, x_min, y_max, x_max) the constraints apply to; R may be 0.
    min_scale, max_scale : float
        The bounds of the crop's side as a fraction of the image's.
    max_aspect_ratio : float
    constraints : sequence of (min_iou, max_iou) or None
        Default ``((0.1, None), (0.3, None), (0.5, None), (0.7, None), (0.9, None), (None, 1))``.
    max_trial : int
        Draws per constraint.
    return_param : bool

    Returns
    -------
    numpy.ndarray or (numpy.ndarray, dict)
        The crop (a view of ``img``); with ``return_param``, also ``{'constraint': (min_iou,
        max_iou) or None, 'y_slice': slice, 'x_slice': slice}``.
    """
    fname = "random_crop_with_bbox_constraints"
    _checks.check_image(fname, img)
    _checks.check_bbox(fname, bbox)
    if constraints is None:
        constraints = _DEFAULT_CONSTRAINTS
    _, H, W = img.shape
    params = [{"constraint": None, "y_slice": slice(0, H), "x_slice": slice(0, W)}]
    if len(bbox) == 0:
        constraints = ()
    for min_iou, max_iou in constraints:
        min_iou = 0 if min_iou is None else min_iou
        max_iou = 1 if max_iou is None else max_iou
        for _ in range(max_trial):
            scale = random.uniform(min_scale, max_scale)
            aspect_ratio = random.uniform(max(1 / max_aspect_ratio, scale * scale),
                                          min(max_aspect_ratio, 1 / (scale * scale)))
            crop_h = int(H * scale / numpy.sqrt(aspect_ratio))
            crop_w = int(W * scale * numpy.sqrt(aspect_ratio))
            # ChainerCV calls randrange(0) (an error) for a crop as high or wide as the image
            crop_t = random.randrange(H - crop_h) if crop_h < H else 0
            crop_l = random.randrange(W - crop_w) if crop_w < W else 0
            crop_bb = numpy.array((crop_t, crop_l, crop_t + crop_h, crop_l + crop_w))
            iou = bbox_iou(bbox, crop_bb[numpy.newaxis])
            if min_iou <= iou.min() and iou.max() <= max_iou:
                params.append({"constraint": (min_iou, max_iou), "y_slice": slice(crop_t, crop_t + crop_h),
                               "x_slice": slice(crop_l, crop_l + crop_w)})
                break
    param = random.choice(params)
    img = img[:, param["y_slice"], param["x_slice"]]
    return (img, param) if return_param else img


def resize_with_random_interpolation(img: numpy.ndarray, size: tuple, return_param: bool = False):
    """Resize an image with OpenCV, the interpolation drawn from linear, area, nearest, cubic and Lanczos.

    Parameters
    ----------
    img : numpy.ndarray, shape (C, H, W)
    size : tuple of two ints
        ``(out_H, out_W)``.
    return_param : bool

    Returns
    -------
    numpy.ndarray or (numpy.ndarray, dict)
        float32 ``(C, out_H, out_W)``; with ``return_param``, also ``{'interpolation': flag}``,
        the OpenCV flag drawn (``cv2.INTER_LINEAR``, ...), as ChainerCV returns it.
    """
    fname = "resize_with_random_interpolation"
    _checks.check_image(fname, img)
    H, W = _checks.check_size(fname, size)
    cv2 = _cv2(fname)
    inter = random.choice((cv2.INTER_LINEAR, cv2.INTER_AREA, cv2.INTER_NEAREST, cv2.INTER_CUBIC,
                           cv2.INTER_LANCZOS4))
    out = cv2.resize(img.transpose((1, 2, 0)), (W, H), interpolation=inter)
    out = out.reshape(H, W, img.shape[0]).astype(numpy.float32).transpose((2, 0, 1))
    return (out, {"interpolation": inter}) if return_param else out
