"""SEResNeXt50/101 against ChainerCV's fixtures."""
import pytest

import vision_classification_parity as parity
from kusari import initializers
from kusari.vision.links import SEResNeXt50, SEResNeXt101
from kusari.vision.links.model.senet import SEResNeXt


@pytest.mark.parametrize("cls, name", [pytest.param(SEResNeXt50, "se_resnext50", marks=pytest.mark.slow),
                                       pytest.param(SEResNeXt101, "se_resnext101", marks=pytest.mark.slow)])
def test_matches_chainercv(cls, name, tmp_path):
    parity.check_model(cls, name, tmp_path)


def test_structure():
    model = SEResNeXt50(n_class=4, initialW=initializers.Zero())
    assert model.res2.a.conv2.conv.groups == 32 and model.res2.a.conv2.conv.W.shape == (128, 4, 3, 3)
    assert model.res3.a.conv2.conv.stride == 2  # Facebook's placement
    assert hasattr(model.res4.b5, "se")


def test_bad_n_layer():
    with pytest.raises(ValueError, match=r"SEResNeXt: n_layer must be one of \[50, 101\], got 152"):
        SEResNeXt(152)
