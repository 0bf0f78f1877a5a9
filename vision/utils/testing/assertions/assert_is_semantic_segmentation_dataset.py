"""assert_is_semantic_segmentation_dataset: checks the semantic segmentation dataset convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import examples, require
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image


def assert_is_semantic_segmentation_dataset(dataset, n_class: int, n_example: int | None = None) -> None:
    """Raise AssertionError unless every example (or ``n_example`` random ones) starts with an RGB
    image and an int32 ``(H, W)`` label map with values in ``[-1, n_class)`` (-1: ignored).

    Parameters
    ----------
    dataset
        The dataset to check.
    n_class : int
        The number of classes, background included.
    n_example : int, optional
        Check this many examples drawn at random (``numpy.random``) instead of all.
    """
    fname = "assert_is_semantic_segmentation_dataset"
    for example in examples(fname, dataset, n_example):
        require(len(example) >= 2, f"{fname}: an example must hold at least img and label, got {len(example)} items")
        img, label = example[:2]
        assert_is_image(img, color=True)
        require(isinstance(label, numpy.ndarray), f"{fname}: label must be a numpy.ndarray, got {type(label).__name__}")
        require(label.dtype == numpy.int32, f"{fname}: label must be int32, got {label.dtype}")
        require(label.shape == img.shape[1:], f"{fname}: label must have the image's shape {img.shape[1:]}, "
                                              f"got {label.shape}")
        require(label.min() >= -1 and label.max() < n_class,
                f"{fname}: label values must lie in [-1, {n_class - 1}], got min {label.min()}, max {label.max()}")
