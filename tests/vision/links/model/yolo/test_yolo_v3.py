"""YOLOv3 against ChainerCV's fixture, its structure and weight files of another configuration."""
import numpy
import pytest

import kusari
import vision_single_shot_parity as parity
from kusari.vision.links import YOLOv3
from kusari.vision.links.model.yolo import Darknet53Extractor, ResidualBlock, YOLOBase


@pytest.mark.slow
def test_matches_chainercv(tmp_path):
    parity.check_model(YOLOv3, "yolo_v3", tmp_path)


def test_structure():
    model = YOLOv3(n_fg_class=4)
    assert isinstance(model, YOLOBase) and isinstance(model.extractor, Darknet53Extractor)
    assert len(model.extractor) == 46 and model.extractor.grids == (13, 26, 52)
    assert sum(isinstance(link, ResidualBlock) for link in model.extractor) == 23
    assert len(model.subnet) == 3 and all(isinstance(s, kusari.Sequential) for s in model.subnet)
    assert [s[1].out_channels for s in model.subnet] == [3 * (5 + 4)] * 3
    n = 3 * (13 * 13 + 26 * 26 + 52 * 52)
    assert model._default_bbox.shape == (n, 4) and model._step.shape == (n,)
    assert model._step[0] == 32 and model._step[3 * 13 * 13] == 16 and model._step[-1] == 8
    numpy.testing.assert_array_equal(model._default_bbox[-1], [51, 51, 23, 33])


def test_residual_block_adds_its_input():
    block = ResidualBlock(kusari.links.Linear(3, 3), kusari.links.Linear(3, 3))
    x = numpy.random.RandomState(0).standard_normal((2, 3)).astype(numpy.float32)
    numpy.testing.assert_allclose(block(x).array, block[1](block[0](x)).array + x, rtol=1e-6)


def test_file_of_another_number_of_classes_is_refused(tmp_path):
    path = tmp_path / "yolo_v3_20_classes.npz"
    numpy.savez(path, **{"subnet/0/1/W": numpy.zeros((75, 1024, 1, 1), numpy.float32)})
    with pytest.raises(ValueError, match=r"YOLOv3: .* shape mismatches: subnet/0/1/W: file \(75, 1024, 1, 1\), "
                                         r"model \(24, \.\.\.\)"):
        YOLOv3(n_fg_class=3, pretrained_model=str(path))


def test_bad_arguments():
    with pytest.raises(ValueError, match="YOLOv3: n_fg_class must be specified"):
        YOLOv3()
    with pytest.raises(ValueError, match="YOLOv3: n_fg_class must be a positive int, got 2.5"):
        YOLOv3(n_fg_class=2.5)
