"""assert_is_semantic_segmentation_link: checks a semantic segmenter's ``predict`` convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import check_lengths, random_images, require


def assert_is_semantic_segmentation_link(link, n_class: int) -> None:
    """Raise AssertionError unless ``link.predict`` on two random images (480x640, 480x320) returns
    one int32 ``(H, W)`` label map per image with values in ``[0, n_class)``.

    Parameters
    ----------
    link
        The semantic segmentation model.
    n_class : int
        The number of classes, background included.
    """
    fname = "assert_is_semantic_segmentation_link"
    imgs = random_images()
    labels = link.predict(imgs)
    check_lengths(fname, len(imgs), labels=labels)
    for img, label in zip(imgs, labels):
        require(isinstance(label, numpy.ndarray), f"{fname}: label must be a numpy.ndarray, got {type(label).__name__}")
        require(label.dtype == numpy.int32, f"{fname}: label must be int32, got {label.dtype}")
        require(label.shape == img.shape[1:], f"{fname}: label must have the image's shape {img.shape[1:]}, "
                                              f"got {label.shape}")
        require(label.min() >= 0 and label.max() < n_class,
                f"{fname}: label values must lie in [0, {n_class - 1}], got min {label.min()}, max {label.max()}")
