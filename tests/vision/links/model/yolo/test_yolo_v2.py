"""YOLOv2 against ChainerCV's fixture, its structure and weight files of another configuration."""
import numpy
import pytest

import vision_single_shot_parity as parity
from kusari.vision.links import YOLOv2
from kusari.vision.links.model.yolo import Darknet19Extractor, YOLOv2Base


@pytest.mark.slow
def test_matches_chainercv(tmp_path):
    parity.check_model(YOLOv2, "yolo_v2", tmp_path)


def test_structure():
    model = YOLOv2(n_fg_class=4)
    assert isinstance(model, YOLOv2Base) and isinstance(model.extractor, Darknet19Extractor)
    assert len(model.extractor) == 22 and model.insize == 416 and model.extractor.grid == 13
    assert model.n_fg_class == 4 and model.subnet.out_channels == 5 * (5 + 4)
    assert model._default_bbox.shape == (13 * 13 * 5, 4) and model._default_bbox.dtype == numpy.float32
    numpy.testing.assert_array_equal(model._default_bbox[5], numpy.float32([0, 1, 1.73145, 1.3221]))


def test_file_of_another_number_of_classes_is_refused(tmp_path):
    path = tmp_path / "yolo_v2_20_classes.npz"
    numpy.savez(path, **{"subnet/W": numpy.zeros((125, 1024, 1, 1), numpy.float32)})
    with pytest.raises(ValueError, match=r"YOLOv2: .* shape mismatches: subnet/W: file \(125, 1024, 1, 1\), "
                                         r"model \(40, \.\.\.\)"):
        YOLOv2(n_fg_class=3, pretrained_model=str(path))


def test_bad_arguments():
    with pytest.raises(ValueError, match="YOLOv2: n_fg_class must be specified"):
        YOLOv2()
    with pytest.raises(ValueError, match="YOLOv2: pretrained_model='voc0712' was trained with n_fg_class=20, "
                                         "which conflicts with n_fg_class=80"):
        YOLOv2(n_fg_class=80, pretrained_model="voc0712")
