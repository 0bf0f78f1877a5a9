"""assert_is_instance_segmentation_link: checks an instance segmenter's ``predict`` convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import (check_label, check_lengths, check_score,
                                                             random_images, require)


def assert_is_instance_segmentation_link(link, n_fg_class: int) -> None:
    """Raise AssertionError unless ``link.predict`` on two random images (480x640, 480x320) returns
    ``(masks, labels, scores)``: per image, a bool ``(R, H, W)`` mask array, int32 labels in
    ``[0, n_fg_class)`` and float32 scores, one per mask.

    Parameters
    ----------
    link
        The instance segmentation model.
    n_fg_class : int
        The number of foreground classes.
    """
    fname = "assert_is_instance_segmentation_link"
    imgs = random_images()
    result = link.predict(imgs)
    require(len(result) == 3, f"{fname}: predict must return masks, labels and scores, got {len(result)} items")
    masks, labels, scores = result
    check_lengths(fname, len(imgs), masks=masks, labels=labels, scores=scores)
    for img, mask, label, score in zip(imgs, masks, labels, scores):
        require(isinstance(mask, numpy.ndarray), f"{fname}: mask must be a numpy.ndarray, got {type(mask).__name__}")
        require(mask.dtype == numpy.bool_, f"{fname}: mask must be bool, got {mask.dtype}")
        require(mask.ndim == 3 and mask.shape[1:] == img.shape[1:],
                f"{fname}: mask must have shape (R, {img.shape[1]}, {img.shape[2]}), got {mask.shape}")
        check_label(fname, label, n_fg_class, len(mask), "mask")
        check_score(fname, score, len(mask), "mask")
