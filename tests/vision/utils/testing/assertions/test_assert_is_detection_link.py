"""kusari.vision.utils.assert_is_detection_link on a stub model: a detector's predict: conforming boxes, labels and scores pass; each kind of violation fails."""
import numpy
import pytest

from kusari.vision import utils


class Detector:
    """Predicts fixed boxes, labels and scores (after ``edit``) for every image."""

    def __init__(self, edit=None):
        self.edit = edit

    def predict(self, imgs):
        bbox = numpy.array([[10, 20, 50, 80], [0, 0, 5, 5]], numpy.float32)
        out = {"bbox": bbox, "label": numpy.array([0, 2], numpy.int32), "score": numpy.array([.9, .2], numpy.float32)}
        if self.edit:
            self.edit(out)
        return [out["bbox"]] * len(imgs), [out["label"]] * len(imgs), [out["score"]] * len(imgs)


def test_detection_link():
    utils.assert_is_detection_link(Detector(), 3)
    edits = {"label": lambda o: o.update(label=o["label"].astype(numpy.int64)),
             "label range": lambda o: o.update(label=numpy.array([0, 3], numpy.int32)),
             "score": lambda o: o.update(score=o["score"][:1]),
             "bbox": lambda o: o.update(bbox=o["bbox"][:, ::-1].copy())}
    for edit in edits.values():
        with pytest.raises(AssertionError):
            utils.assert_is_detection_link(Detector(edit), 3)
