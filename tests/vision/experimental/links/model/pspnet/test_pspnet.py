"""PSPNetResNet50/101 and the PyramidPoolingModule against ChainerCV's fixtures, and their arguments and bad
input."""
import numpy
import pytest

import kusari
import vision_segmentation_parity as parity
from kusari import initializers
from kusari.vision import experimental
from kusari.vision.experimental.links import PSPNetResNet50, PSPNetResNet101
from kusari.vision.experimental.links.model import pspnet
from kusari.vision.experimental.links.model.pspnet.pspnet import DilatedResNet, PSPNet, PyramidPoolingModule


def _seeded(cls, name, tmp_path):
    fixture = parity.load_fixture(f"{name}.npz")
    config = fixture["config"]
    assert config["class"] == cls.__name__
    kwargs = dict(config["kwargs"], input_size=tuple(config["kwargs"]["input_size"]))
    return parity.seeded_model(lambda **more: cls(**kwargs, **more), fixture, tmp_path), fixture


def _check(cls, name, tmp_path, predict_tolerance=1e-4):
    model, fixture = _seeded(cls, name, tmp_path)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        y = model(fixture["x"])
    assert y.shape == fixture["x"].shape[:1] + (model.n_class,) + fixture["x"].shape[2:]
    parity.assert_close(y, fixture["y"], name)
    return parity.check_predict(model, fixture, name, tolerance=predict_tolerance)


def test_exports():
    assert experimental.links.PSPNetResNet50 is PSPNetResNet50 is pspnet.PSPNetResNet50
    assert pspnet.PSPNetResNet101 is PSPNetResNet101 and pspnet.PSPNet is PSPNet
    assert callable(pspnet.convolution_crop)


def test_pyramid_pooling_matches_chainercv(tmp_path):
    parity.check_part(PyramidPoolingModule, parity.load_fixture("pspnet_parts.npz", "pyramid_pooling/"), tmp_path)


@pytest.mark.slow
def test_resnet50_matches_chainercv(tmp_path):
    # the images fit input_size (padded), are shrunk into it, or are tiled (2 crops); and two scales
    ties = _check(PSPNetResNet50, "pspnet_resnet50", tmp_path)
    assert set(ties) == {"default", "scales"}


@pytest.mark.slow
def test_resnet101_matches_chainercv(tmp_path):
    # saturated probabilities: many pixels are exact ties (0.5 and 0.5) between a crop and its flip.
    # Through 101 float32 layers the kernels' rounding differs from Chainer's by up to 0.5e-4 (NumPy kernels),
    # 0.3e-4 (oneDNN, blocked layouts) and 1.1e-4 (oneDNN, channels-last) in the predicted scores, at a
    # per-convolution error of 1e-6 in each: the predict scores are compared within 2e-4
    ties = _check(PSPNetResNet101, "pspnet_resnet101", tmp_path, predict_tolerance=2e-4)
    assert set(ties) == {"default"}


def test_structure():
    model = PSPNetResNet50(n_class=4, input_size=48, initialW=initializers.Zero())
    assert model.input_size == (48, 48) and model.n_class == 4 and model.scales is None
    numpy.testing.assert_allclose(model.mean.ravel(), [123.68, 116.779, 103.939], rtol=1e-7)
    assert model.mean.dtype == numpy.float32
    assert model.extractor.pick == ("res4", "res5")
    assert model.extractor.layer_names == ["conv1_1", "conv1_2", "conv1_3", "pool1", "res2", "res3", "res4", "res5"]
    assert model.ppm.ksizes == [(1, 1), (2, 2), (3, 3), (6, 6)] and len(model.ppm) == 4
    assert model.extractor.res4.b1.conv2.conv.dilate == 2 and model.extractor.res5.a.conv2.conv.dilate == 4
    assert len(PSPNetResNet101(n_class=4, input_size=48, initialW=initializers.Zero()).extractor.res4.layer_names) == 23
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        assert model(numpy.zeros((1, 3, 48, 48), numpy.float32)).shape == (1, 4, 48, 48)


@pytest.mark.slow
def test_predict_tiles_an_image_much_shorter_than_input_size():
    """ChainerCV 0.13.1 makes no crop along an axis shorter than input_size - stride (here 10 < 48 - 32)
    and predicts from 0 / 0; kusari makes one (convolution_crop)."""
    model = PSPNetResNet50(n_class=3, input_size=(48, 56))
    img = numpy.random.RandomState(0).randint(0, 256, (3, 10, 70)).astype(numpy.uint8)
    with numpy.errstate(invalid="raise", divide="raise"):
        label, = model.predict([img])
    assert label.shape == (10, 70) and label.dtype == numpy.int32


def test_bad_arguments_and_input():
    with pytest.raises(ValueError, match=r"PSPNetResNet50: input_size=\(40, 64\) must be at least 48 in both "
                                         r"dimensions"):
        PSPNetResNet50(n_class=3, input_size=(40, 64))
    with pytest.raises(ValueError, match="PSPNetResNet101: pretrained_model='ade20k' was trained with "
                                         "input_size=\\(473, 473\\), which conflicts with input_size=\\(713, 713\\)"):
        PSPNetResNet101(pretrained_model="ade20k", input_size=(713, 713))
    with pytest.raises(ValueError, match="PSPNetResNet50: n_class must be specified"):
        PSPNetResNet50()
    with pytest.raises(TypeError, match="PSPNet is a base class: use PSPNetResNet50 or PSPNetResNet101"):
        PSPNet(n_class=3)
    with pytest.raises(ValueError, match="DilatedResNet: n_layer must be one of \\[50, 101\\], got 152"):
        DilatedResNet(152)
    with pytest.raises(ValueError, match=r"PyramidPoolingModule: feat_size=\(4, 6\) is smaller than the pyramid "
                                         r"levels \[6, 3, 2, 1\]"):
        PyramidPoolingModule(8, (4, 6), [6, 3, 2, 1])
    model = PSPNetResNet50(n_class=3, input_size=48, initialW=initializers.Zero())
    with pytest.raises(ValueError, match=r"PSPNetResNet50.predict: imgs\[0\] looks like an HWC image"):
        model.predict([numpy.zeros((30, 30, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"PSPNetResNet50.predict: imgs\[0\] is empty \(shape=\(3, 0, 5\)\)"):
        model.predict([numpy.zeros((3, 0, 5), numpy.float32)])
