"""The five evaluator extensions against what ChainerCV 0.13.1's report for the same stub predictions."""
import numpy
import pytest

import kusari
from kusari.datasets import TupleDataset
from kusari.iterators import SerialIterator
from kusari.vision.extensions import (DetectionCOCOEvaluator, DetectionVOCEvaluator, InstanceSegmentationCOCOEvaluator,
                                      InstanceSegmentationVOCEvaluator, SemanticSegmentationEvaluator)

NAMES = ("a", "b", "c", "d", "e", "f")


class StubLink(kusari.Link):
    """predict() returns the stored outputs of the next len(imgs) images."""

    def __init__(self, *outputs):
        super().__init__()
        self.outputs = outputs
        self.count = 0

    def predict(self, imgs):
        start, self.count = self.count, self.count + len(imgs)
        values = tuple(list(o[start:self.count]) for o in self.outputs)
        return values if len(values) > 1 else values[0]


def _iterator(f, *keys):
    columns = [f.list(k) for k in keys]
    imgs = numpy.zeros((len(columns[0]), 3, 4, 5), numpy.float32)
    return SerialIterator(TupleDataset(imgs, *columns), 3, repeat=False, shuffle=False)


def _det_stub(f):
    return StubLink(f.list("det/pred_bbox"), f.list("det/pred_label"), f.list("det/pred_score"))


def _ins_stub(f):
    return StubLink(f.list("ins/pred_mask"), f.list("ins/pred_label"), f.list("ins/pred_score"))


CASES = {
    "det_voc": lambda f: DetectionVOCEvaluator(_iterator(f, "det/gt_bbox", "det/gt_label"), _det_stub(f),
                                               label_names=NAMES),
    "det_voc_difficult_07": lambda f: DetectionVOCEvaluator(
        _iterator(f, "det/gt_bbox", "det/gt_label", "det/gt_difficult"), _det_stub(f), use_07_metric=True,
        label_names=NAMES),
    "det_voc_plain": lambda f: DetectionVOCEvaluator(_iterator(f, "det/gt_bbox", "det/gt_label"), _det_stub(f)),
    "det_coco": lambda f: DetectionCOCOEvaluator(
        _iterator(f, "det/gt_bbox", "det/gt_label", "det/gt_area", "det/gt_crowded"), _det_stub(f),
        label_names=NAMES[:4]),
    "det_coco_plain": lambda f: DetectionCOCOEvaluator(_iterator(f, "det/gt_bbox", "det/gt_label"), _det_stub(f)),
    "semseg": lambda f: SemanticSegmentationEvaluator(_iterator(f, "seg/gt_label"), StubLink(f.list("seg/pred_label")),
                                                      label_names=NAMES[:4]),
    "ins_voc": lambda f: InstanceSegmentationVOCEvaluator(_iterator(f, "ins/gt_mask", "ins/gt_label"), _ins_stub(f),
                                                          iou_thresh=0.4, label_names=NAMES[:3]),
    "ins_coco": lambda f: InstanceSegmentationCOCOEvaluator(
        _iterator(f, "ins/gt_mask", "ins/gt_label", "ins/gt_area", "ins/gt_crowded"), _ins_stub(f),
        label_names=NAMES[:2]),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_reports_chainercvs_keys_and_values(extensions_fixture, case):
    result = CASES[case](extensions_fixture)()
    keys = list(extensions_fixture[f"{case}/keys"])
    assert sorted(result) == keys
    numpy.testing.assert_allclose([float(result[k]) for k in keys], extensions_fixture[f"{case}/values"],
                                  rtol=0, atol=1e-6)


def test_name_prefix_and_repeated_calls(extensions_fixture):
    evaluator = CASES["det_voc"](extensions_fixture)
    first = evaluator()
    evaluator.name = "validation"
    evaluator.get_target("main").count = 0        # the stub hands out predictions in order
    second = evaluator()
    assert set(second) == {"validation/" + k for k in first}
    assert second["validation/main/map"] == first["main/map"]


def test_evaluate_reports_to_the_targets_observer_name(extensions_fixture):
    evaluator = CASES["det_voc_plain"](extensions_fixture)
    reporter = kusari.Reporter()
    reporter.add_observer("target", evaluator.get_target("main"))
    with reporter:
        result = evaluator.evaluate()
    assert list(result) == ["target/map"]
    assert reporter.observation == {}


def test_a_dataset_of_the_wrong_width_is_named(extensions_fixture):
    f = extensions_fixture
    evaluator = DetectionCOCOEvaluator(_iterator(f, "det/gt_bbox", "det/gt_label", "det/gt_area"), _det_stub(f))
    with pytest.raises(ValueError, match=r"DetectionCOCOEvaluator: the dataset must give 3 values per sample .* got 4"):
        evaluator()
