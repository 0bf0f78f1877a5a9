"""SeparableASPP against ChainerCV's fixture (deeplab_parts.npz), and its branches."""
import numpy
import pytest

import kusari
import vision_segmentation_parity as parity
from kusari.vision.links.model.deeplab import SeparableASPP


def test_matches_chainercv(tmp_path):
    parity.check_part(SeparableASPP, parity.load_fixture("deeplab_parts.npz", "separable_aspp/"), tmp_path)


def test_branches():
    aspp = SeparableASPP(6, 4, bn_kwargs={"eps": 1e-5})
    assert [aspp[f"atrous{i}"].depthwise.dilate for i in (1, 2, 3)] == [12, 24, 36]
    assert aspp.proj.conv.W.shape == (4, 20, 1, 1) and aspp.atrous2.pw_bn.eps == 1e-5
    x = numpy.random.RandomState(0).standard_normal((2, 6, 5, 7)).astype(numpy.float32)
    with kusari.using_config("train", False):
        pooled = aspp.image_pooling(x).array
        assert aspp(x).shape == (2, 4, 5, 7)
    assert pooled.shape == (2, 4, 5, 7)
    numpy.testing.assert_array_equal(pooled, numpy.broadcast_to(pooled[:, :, :1, :1], pooled.shape))


def test_bad_dilate_list():
    with pytest.raises(ValueError, match="SeparableASPP: dilate_list must hold 3 dilations, got \\(1, 2\\)"):
        SeparableASPP(4, 4, dilate_list=(1, 2))
