"""assert_is_detection_link: checks a detector's ``predict`` convention."""
from kusari.vision.utils.testing.assertions._common import (check_label, check_lengths, check_score,
                                                             random_images, require)
from kusari.vision.utils.testing.assertions.assert_is_bbox import assert_is_bbox


def assert_is_detection_link(link, n_fg_class: int) -> None:
    """Raise AssertionError unless ``link.predict`` on two random images (480x640, 480x320) returns
    ``(bboxes, labels, scores)``: per image, float32 boxes, int32 labels in ``[0, n_fg_class)`` and
    float32 scores, one per box.

    Parameters
    ----------
    link
        The detector.
    n_fg_class : int
        The number of foreground classes.
    """
    fname = "assert_is_detection_link"
    imgs = random_images()
    result = link.predict(imgs)
    require(len(result) == 3, f"{fname}: predict must return bboxes, labels and scores, got {len(result)} items")
    bboxes, labels, scores = result
    check_lengths(fname, len(imgs), bboxes=bboxes, labels=labels, scores=scores)
    for bbox, label, score in zip(bboxes, labels, scores):
        assert_is_bbox(bbox)
        check_label(fname, label, n_fg_class, len(bbox), "box")
        check_score(fname, score, len(bbox), "box")
