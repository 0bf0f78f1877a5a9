"""XceptionBlock and Xception65 against ChainerCV's fixtures (deeplab_parts.npz), and their structure."""
import numpy
import pytest

import kusari
import vision_segmentation_parity as parity
from kusari.vision.links.model.deeplab import Xception65, XceptionBlock


@pytest.mark.parametrize("case", ["xception_block_conv", "xception_block_sum", "xception_block_none"])
def test_xception_block_matches_chainercv(case, tmp_path):
    parity.check_part(XceptionBlock, parity.load_fixture("deeplab_parts.npz", case + "/"), tmp_path)


def test_xception_block_returns_the_second_separable_output_before_its_activation():
    block = XceptionBlock(4, [4, 4, 4], skip_type="none")
    x = numpy.random.RandomState(0).standard_normal((1, 4, 5, 5)).astype(numpy.float32)
    with kusari.using_config("train", False):
        _, separable2 = block(x)
        expected = block.separable2(block.separable1(kusari.functions.relu(x)))
    numpy.testing.assert_array_equal(separable2.array, expected.array)
    assert (separable2.array < 0).any()      # not rectified
    assert not hasattr(block, "conv")


def test_xception65_layers_and_outputs():
    model = Xception65()
    names = sorted(name for name, _ in model.namedlinks(skipself=True) if name.count("/") == 1)
    assert len(names) == 2 + 3 + 16 + 2 and "/middleflow_block16" in names
    assert model.exitflow_block2.separable3.pointwise.W.shape == (2048, 1536, 1, 1)
    numpy.testing.assert_array_equal(model.mean, numpy.full((3, 1, 1), 127.5, numpy.float32))
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        lowlevel, highlevel = model(numpy.zeros((1, 3, 33, 40), numpy.float32))
    assert lowlevel.shape == (1, 256, 9, 10) and highlevel.shape == (1, 2048, 5, 5)


def test_bad_arguments():
    with pytest.raises(ValueError, match="XceptionBlock: skip_type must be one of \\('conv', 'sum', 'none'\\), "
                                         "got 'add'"):
        XceptionBlock(4, [4, 4, 4], skip_type="add")
    with pytest.raises(ValueError, match="XceptionBlock: depthlist must hold 3 channel counts, got \\[4, 4\\]"):
        XceptionBlock(4, [4, 4])
    # a caller's activation lists are not modified
    activations = [kusari.functions.relu] * 3
    XceptionBlock(4, [4, 4, 4], pw_activ_list=activations, dw_activ_list=None)
    assert activations == [kusari.functions.relu] * 3
    assert XceptionBlock(4, [4, 4, 4], bn_kwargs={"eps": 1e-3}).separable1.dw_bn.eps == 1e-3
