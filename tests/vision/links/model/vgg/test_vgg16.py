"""VGG16 against ChainerCV's fixture."""
import numpy
import pytest

import kusari
import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import VGG16


@pytest.mark.slow
def test_matches_chainercv(tmp_path):
    parity.check_model(VGG16, "vgg16", tmp_path)


def test_fc6_input_size_follows_the_first_input():
    model = VGG16(n_class=3, initialW=initializers.Zero())
    assert model.fc6.W.array is None and model.conv1_1.conv.W.array is None
    model.pick = ["pool5", "fc8"]
    with kusari.using_config("train", False):
        pool5, fc8 = model(numpy.zeros((1, 3, 64, 64), numpy.float32))
    assert pool5.shape == (1, 512, 2, 2) and fc8.shape == (1, 3)
    assert model.fc6.W.shape == (4096, 2048)
    numpy.testing.assert_allclose(model.mean.ravel(), [123.68, 116.779, 103.939], rtol=1e-6)
