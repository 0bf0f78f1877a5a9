"""ResNet50/101/152 ('fb' and 'he') against ChainerCV's fixtures, and their configuration."""
import numpy
import pytest

import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import ResNet50, ResNet101, ResNet152
from kusari.vision.links.model.resnet import ResNet


@pytest.mark.parametrize("cls, name", [
    (ResNet50, "resnet50_fb"),
    pytest.param(ResNet50, "resnet50_he", marks=pytest.mark.slow),
    pytest.param(ResNet101, "resnet101_he", marks=pytest.mark.slow),
    pytest.param(ResNet152, "resnet152_fb", marks=pytest.mark.slow),
])
def test_matches_chainercv(cls, name, tmp_path):
    parity.check_model(cls, name, tmp_path)


def test_arch_places_the_stride_and_the_conv1_bias():
    zero = initializers.Zero()
    fb, he = ResNet50(n_class=3, initialW=zero), ResNet50(n_class=3, arch="he", initialW=zero)
    assert fb.res3.a.conv1.conv.stride == 1 and fb.res3.a.conv2.conv.stride == 2
    assert he.res3.a.conv1.conv.stride == 2 and he.res3.a.conv2.conv.stride == 1
    assert fb.conv1.conv.b is None and he.conv1.conv.b is not None
    assert ResNet101(n_class=3, arch="he", initialW=zero).conv1.conv.b is None
    resnet152 = ResNet152(n_class=3, initialW=zero)
    assert [len(getattr(resnet152, f"res{i}").layer_names) for i in range(2, 6)] == [3, 8, 36, 3]


def test_pick_returns_the_named_layers():
    model = ResNet50(n_class=5)
    x = numpy.zeros((2, 3, 32, 32), numpy.float32)
    assert model(x).shape == (2, 5)
    model.pick = ["pool5", "res3"]
    pool5, res3 = model(x)
    assert pool5.shape == (2, 2048) and res3.shape == (2, 512, 4, 4)


def test_bad_arguments():
    with pytest.raises(ValueError, match="ResNet50: arch must be 'fb' or 'he', got 'xx'"):
        ResNet50(arch="xx")
    with pytest.raises(ValueError, match="ResNet: n_layer must be one of \\[50, 101, 152\\], got 34"):
        ResNet(34)
    with pytest.raises(ValueError, match="ResNet50: pretrained_model='imagenet' was trained with n_class=1000, "
                                         "which conflicts with n_class=10"):
        ResNet50(n_class=10, pretrained_model="imagenet")
