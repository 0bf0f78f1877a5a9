"""YOLOv2Tiny against ChainerCV's fixture, its place in the package tree and its structure."""
import numpy
import pytest

import kusari.vision as chainercv
import vision_single_shot_parity as parity
from kusari.vision.experimental.links import YOLOv2Tiny
from kusari.vision.experimental.links.model.yolo import DarknetExtractor
from kusari.vision.links.model.yolo import YOLOv2Base


def test_matches_chainercv(tmp_path):
    parity.check_model(YOLOv2Tiny, "yolo_v2_tiny", tmp_path)


def test_package_tree():
    assert chainercv.experimental.links.YOLOv2Tiny is YOLOv2Tiny
    assert chainercv.experimental.links.model.yolo.YOLOv2Tiny is YOLOv2Tiny


def test_structure():
    model = YOLOv2Tiny(n_fg_class=2)
    assert isinstance(model, YOLOv2Base) and isinstance(model.extractor, DarknetExtractor)
    assert len(model.extractor) == 8 and model.subnet.out_channels == 5 * (5 + 2)
    numpy.testing.assert_array_equal(model._default_bbox[:2], numpy.float32([[0, 0, 1.19, 1.08], [0, 0, 4.41, 3.42]]))


def test_bad_arguments():
    with pytest.raises(ValueError, match="YOLOv2Tiny: n_fg_class must be specified"):
        YOLOv2Tiny()
