"""assert_is_instance_segmentation_dataset: checks the instance segmentation dataset convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import check_label, examples, require
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image


def assert_is_instance_segmentation_dataset(dataset, n_fg_class: int, n_example: int | None = None) -> None:
    """Raise AssertionError unless every example (or ``n_example`` random ones) starts with an RGB
    image, a bool ``(R, H, W)`` mask array and int32 labels in ``[0, n_fg_class)``.

    Parameters
    ----------
    dataset
        The dataset to check.
    n_fg_class : int
        The number of foreground classes.
    n_example : int, optional
        Check this many examples drawn at random (``numpy.random``) instead of all.
    """
    fname = "assert_is_instance_segmentation_dataset"
    for example in examples(fname, dataset, n_example):
        require(len(example) >= 3, f"{fname}: an example must hold at least img, mask and label, "
                                   f"got {len(example)} items")
        img, mask, label = example[:3]
        assert_is_image(img, color=True)
        require(isinstance(mask, numpy.ndarray), f"{fname}: mask must be a numpy.ndarray, got {type(mask).__name__}")
        require(mask.dtype == numpy.bool_, f"{fname}: mask must be bool, got {mask.dtype}")
        require(mask.ndim == 3 and mask.shape[1:] == img.shape[1:],
                f"{fname}: mask must have shape (R, {img.shape[1]}, {img.shape[2]}), got {mask.shape}")
        check_label(fname, label, n_fg_class, mask.shape[0], "mask")
