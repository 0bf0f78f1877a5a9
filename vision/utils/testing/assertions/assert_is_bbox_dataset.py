"""assert_is_bbox_dataset: checks the detection dataset convention."""
from kusari.vision.utils.testing.assertions._common import check_label, examples, require
from kusari.vision.utils.testing.assertions.assert_is_bbox import assert_is_bbox
from kusari.vision.utils.testing.assertions.assert_is_image import assert_is_image


def assert_is_bbox_dataset(dataset, n_fg_class: int, n_example: int | None = None) -> None:
    """Raise AssertionError unless every example (or ``n_example`` random ones) starts with an RGB
    image, its boxes (inside it) and their int32 labels in ``[0, n_fg_class)``.

    Parameters
    ----------
    dataset
        The dataset to check.
    n_fg_class : int
        The number of foreground classes.
    n_example : int, optional
        Check this many examples drawn at random (``numpy.random``) instead of all.
    """
    fname = "assert_is_bbox_dataset"
    for example in examples(fname, dataset, n_example):
        require(len(example) >= 3, f"{fname}: an example must hold at least img, bbox and label, "
                                   f"got {len(example)} items")
        img, bbox, label = example[:3]
        assert_is_image(img, color=True)
        assert_is_bbox(bbox, size=img.shape[1:])
        check_label(fname, label, n_fg_class, len(bbox), "box")
