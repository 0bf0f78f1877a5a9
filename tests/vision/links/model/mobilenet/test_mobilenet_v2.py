"""MobileNetV2 (depth multipliers 1.0 and 1.4) against ChainerCV's fixtures (written by ChainerCV's master
sources: MobileNetV2 came after 0.13.1)."""
import numpy
import pytest

import kusari
import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import MobileNetV2


@pytest.mark.parametrize("name", ["mobilenet_v2_1.0", "mobilenet_v2_1.4"])
def test_matches_chainercv(name, tmp_path):
    parity.check_model(MobileNetV2, name, tmp_path)


def test_structure():
    model = MobileNetV2(n_class=7, initialW=initializers.Zero())
    assert not hasattr(model.expanded_conv, "expand")  # expansion factor 1
    assert model.expanded_conv_1.expand.conv.conv.W.shape == (96, 16, 1, 1)
    assert model.expanded_conv_1.depthwise.conv.conv.stride == 2
    assert model.conv1.conv.conv.W.shape == (1280, 320, 1, 1)
    assert model.logits_conv.W is model.logits_conv.conv.W
    assert model.conv.bn.decay == 0.999 and model.conv.bn.eps == 0.001
    with kusari.using_config("train", False):
        assert model(numpy.zeros((2, 3, 33, 33), numpy.float32)).shape == (2, 7)


def test_thousand_categories_mode_drops_the_background_class(tmp_path):
    numpy.random.seed(5)
    model = MobileNetV2(n_class=1001, initialW=initializers.Zero())
    kusari.serializers.save_npz(str(tmp_path / "m.npz"), model)
    dropped = MobileNetV2(n_class=1001, pretrained_model=str(tmp_path / "m.npz"), thousand_categories_mode=True)
    assert dropped.logits_conv.W.shape == (1000, 1280, 1, 1) and dropped.n_class == 1000
    numpy.testing.assert_array_equal(dropped.logits_conv.b.array, model.logits_conv.b.array[1:])


def test_bad_arguments():
    with pytest.raises(ValueError, match="MobileNetV2: depth_multiplier must be greater than 0, got 0"):
        MobileNetV2(depth_multiplier=0)
    with pytest.raises(ValueError, match="MobileNetV2: arch must be one of \\['tf'\\], got 'torch'"):
        MobileNetV2(arch="torch")
    with pytest.raises(ValueError, match="MobileNetV2: pretrained_model='imagenet' is neither a pretrained model "
                                         "of this configuration \\(none\\)"):
        MobileNetV2(depth_multiplier=0.5, pretrained_model="imagenet")
