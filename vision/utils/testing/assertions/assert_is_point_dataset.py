"""assert_is_point_dataset: checks the keypoint dataset convention."""
from kusari.vision.utils.testing.assertions._common import examples, require
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image
from kusari.vision.utils.testing.assertions.assert_is_point import assert_is_point


def assert_is_point_dataset(dataset, n_point: int | None = None, n_example: int | None = None,
                            no_visible: bool = False) -> None:
    """Raise AssertionError unless every example (or ``n_example`` random ones) starts with an RGB
    image and its points (inside it), optionally followed by their visibility.

    Parameters
    ----------
    dataset
        The dataset to check.
    n_point : int, optional
        The number of points each object must have.
    n_example : int, optional
        Check this many examples drawn at random (``numpy.random``) instead of all.
    no_visible : bool
        The examples hold no visibility (a third item is something else).
    """
    fname = "assert_is_point_dataset"
    for example in examples(fname, dataset, n_example):
        require(len(example) >= 2, f"{fname}: an example must hold at least img and point, got {len(example)} items")
        img, point = example[:2]
        visible = None if len(example) == 2 or no_visible else example[2]
        assert_is_image(img, color=True)
        assert_is_point(point, visible, img.shape[1:], n_point)
