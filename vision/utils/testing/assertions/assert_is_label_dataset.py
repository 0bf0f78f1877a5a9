"""assert_is_label_dataset: checks the image-classification dataset convention."""
import numpy

from kusari.vision.utils.testing.assertions._common import examples, require
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image


def assert_is_label_dataset(dataset, n_class: int, n_example: int | None = None, color: bool = True) -> None:
    """Raise AssertionError unless every example (or ``n_example`` random ones) starts with an image
    and a ``numpy.int32`` label in ``[0, n_class)``.

    Parameters
    ----------
    dataset
        The dataset to check.
    n_class : int
        The number of classes.
    n_example : int, optional
        Check this many examples drawn at random (``numpy.random``) instead of all.
    color : bool
        Expect RGB images (default) or grayscale ones.
    """
    fname = "assert_is_label_dataset"
    for example in examples(fname, dataset, n_example):
        require(len(example) >= 2, f"{fname}: an example must hold at least img and label, got {len(example)} items")
        img, label = example[:2]
        assert_is_image(img, color=color)
        require(isinstance(label, numpy.int32), f"{fname}: label must be a numpy.int32, got {type(label).__name__}")
        require(0 <= label < n_class, f"{fname}: label must lie in [0, {n_class - 1}], got {label}")
