"""SSD300 and SSD512 against ChainerCV's fixtures, their structure, the partial 'imagenet' weights, weight
files of another configuration, and bad arguments."""
import numpy
import pytest

import vision_single_shot_parity as parity
from kusari.model_zoo import registry
from kusari.vision.links import SSD300, SSD512
from kusari.vision.links.model.ssd import SSD, VGG16, Multibox, VGG16Extractor300, VGG16Extractor512
from kusari.vision.links.model.ssd.ssd_vgg16 import IMAGENET_KEYS


@pytest.mark.slow
@pytest.mark.parametrize("cls, name", [(SSD300, "ssd300"), (SSD512, "ssd512")])
def test_matches_chainercv(cls, name, tmp_path):
    parity.check_model(cls, name, tmp_path)


@pytest.mark.parametrize("cls, extractor, n_default", [(SSD300, VGG16Extractor300, 8732),
                                                       (SSD512, VGG16Extractor512, 24564)])
def test_structure(cls, extractor, n_default):
    model = cls(n_fg_class=4)
    assert isinstance(model, SSD) and isinstance(model.extractor, extractor)
    assert isinstance(model.extractor, VGG16) and isinstance(model.multibox, Multibox)
    assert model.n_fg_class == 4 and model.multibox.n_class == 5
    assert len(model.coder._default_bbox) == n_default
    assert len(model.multibox.loc) == len(model.extractor.grids)
    assert model.extractor.norm4.scale.shape == (512,) and (model.extractor.norm4.scale.array == 20).all()
    numpy.testing.assert_array_equal(model.mean.ravel(), [123, 117, 104])


def _imagenet_file(tmp_path, drop=(), extra=True):
    """A stand-in for ChainerCV's ssd_vgg16_imagenet_converted file: the VGG-16 base's keys and shapes."""
    channels = {"1": (3, 64), "2": (64, 128), "3": (128, 256), "4": (256, 512), "5": (512, 512)}
    arrays = {}
    for key in IMAGENET_KEYS:
        conv, param = key.split("/")[1:]
        if conv == "conv6":
            shape = (1024, 512, 3, 3)
        elif conv == "conv7":
            shape = (1024, 1024, 1, 1)
        else:
            stage, i = conv[4:].split("_")
            c_in, c_out = channels[stage]
            shape = (c_out, c_in if i == "1" else c_out, 3, 3)
        arrays[key] = numpy.full(shape if param == "W" else shape[:1], len(arrays) / 100, numpy.float32)
    if extra:
        arrays["fc8/W"] = numpy.zeros((10, 4), numpy.float32)    # keys the model lacks are ignored
    for key in drop:
        del arrays[key]
    path = tmp_path / "imagenet.npz"
    numpy.savez_compressed(path, **arrays)
    return str(path), arrays


@pytest.mark.slow
def test_imagenet_loads_the_vgg16_base_only(tmp_path, monkeypatch):
    path, arrays = _imagenet_file(tmp_path)
    monkeypatch.setattr(registry, "weights_path", lambda name: path if name == "ssd300-imagenet" else None)
    model = SSD300(n_fg_class=7, pretrained_model="imagenet")
    assert model.n_fg_class == 7
    for key in IMAGENET_KEYS:
        _, conv, param = key.split("/")
        numpy.testing.assert_array_equal(getattr(getattr(model.extractor, conv), param).array, arrays[key])
    assert (model.extractor.norm4.scale.array == 20).all()            # not in the file: initial value
    assert model.extractor.conv8_1.W.array is None and model.multibox.loc[0].W.array is None


def test_imagenet_file_without_the_base_is_refused(tmp_path, monkeypatch):
    path = tmp_path / "conv1_1.npz"
    numpy.savez(path, **{"extractor/conv1_1/W": numpy.zeros((64, 3, 3, 3), numpy.float32)})
    monkeypatch.setattr(registry, "weights_path", lambda name: str(path))
    with pytest.raises(ValueError, match="SSD512: .* does not hold the weights of this architecture .*"
                                         "missing keys: extractor/conv1_1/b, extractor/conv1_2/W"):
        SSD512(n_fg_class=7, pretrained_model="imagenet")


def test_file_of_another_number_of_classes_is_refused(tmp_path):
    path = tmp_path / "ssd300_3_classes.npz"
    numpy.savez(path, **{"multibox/conf/0/W": numpy.zeros((16, 512, 3, 3), numpy.float32)})   # n_fg_class=3
    with pytest.raises(ValueError, match=r"SSD300: .* shape mismatches: multibox/conf/0/W: file \(16, 512, 3, 3\), "
                                         r"model \(24, \.\.\.\)"):
        SSD300(n_fg_class=5, pretrained_model=str(path))


def test_bad_arguments():
    with pytest.raises(ValueError, match="SSD300: n_fg_class must be specified"):
        SSD300()
    with pytest.raises(ValueError, match="SSD512: n_fg_class must be a positive int, got 0"):
        SSD512(n_fg_class=0)
    with pytest.raises(ValueError, match="SSD300: pretrained_model='voc0712' was trained with n_fg_class=20, "
                                         "which conflicts with n_fg_class=5"):
        SSD300(n_fg_class=5, pretrained_model="voc0712")
    with pytest.raises(ValueError, match="SSD300: pretrained_model='yolo-v2-voc0712' holds the weights of "
                                         r"kusari.vision.links:YOLOv2\(n_fg_class=20\)"):
        SSD300(pretrained_model="yolo-v2-voc0712")
    with pytest.raises(ValueError, match="SSD300: pretrained_model='nothing.npz' is neither a pretrained model"):
        SSD300(n_fg_class=3, pretrained_model="nothing.npz")
    with pytest.raises(ValueError, match=r"VGG16Extractor300: x must have shape \(B, 3, 300, 300\), got "
                                         r"x.shape=\(1, 3, 64, 64\)"):
        VGG16Extractor300()(numpy.zeros((1, 3, 64, 64), numpy.float32))
