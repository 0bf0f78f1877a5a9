"""SEResNet50/101/152 against ChainerCV's fixtures."""
import pytest

import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import SEResNet50, SEResNet101, SEResNet152
from kusari.vision.links.model.senet import SEResNet


@pytest.mark.slow
@pytest.mark.parametrize("cls, name", [(SEResNet50, "se_resnet50"), (SEResNet101, "se_resnet101"),
                                       (SEResNet152, "se_resnet152")])
def test_matches_chainercv(cls, name, tmp_path):
    parity.check_model(cls, name, tmp_path)


def test_structure():
    model = SEResNet50(n_class=4, initialW=initializers.Zero())
    assert model.conv1.conv.b is None
    assert model.res3.a.conv1.conv.stride == 2  # Kaiming He's placement
    assert model.res5.b2.se.down.W.shape == (128, 2048)
    assert model.fc6.out_size == 4


def test_bad_n_layer():
    with pytest.raises(ValueError, match=r"SEResNet: n_layer must be one of \[50, 101, 152\], got 18"):
        SEResNet(18)
