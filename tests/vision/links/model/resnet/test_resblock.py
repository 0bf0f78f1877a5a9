"""ResBlock and Bottleneck: their structure and the residual arithmetic (the ResNet fixtures cover the numbers
against ChainerCV)."""
import numpy

import kusari
import kusari.functions as F
from kusari.vision.links.model.resnet import Bottleneck, ResBlock


def test_resblock_children_and_strides():
    block = ResBlock(3, None, 4, 32, 2, groups=2, add_seblock=True)
    assert block.layer_names == ["a", "b1", "b2"]
    assert hasattr(block.a, "residual_conv") and not hasattr(block.b1, "residual_conv")
    assert all(hasattr(getattr(block, n), "se") for n in block.layer_names)
    assert block.a.conv2.conv.stride == 2 and block.b1.conv2.conv.stride == 1
    assert block.b2.conv2.conv.groups == 2
    y = block(numpy.ones((1, 6, 8, 8), numpy.float32))
    assert y.shape == (1, 32, 4, 4)
    assert block.a.conv1.conv.W.shape == (4, 6, 1, 1)


def test_bottleneck_is_relu_of_branch_plus_input():
    numpy.random.seed(3)
    unit = Bottleneck(8, 2, 8, dilate=2)
    assert unit.conv2.conv.dilate == 2 and unit.conv2.conv.pad == 2
    x = numpy.random.standard_normal((2, 8, 5, 5)).astype(numpy.float32)
    with kusari.using_config("train", False):
        branch = unit.conv3(unit.conv2(unit.conv1(x))).array
        numpy.testing.assert_allclose(unit(x).array, numpy.maximum(branch + x, 0), rtol=1e-6)


def test_bottleneck_projects_the_shortcut():
    numpy.random.seed(4)
    unit = Bottleneck(4, 2, 6, stride=2, residual_conv=True, stride_first=True)
    assert unit.conv1.conv.stride == 2 and unit.residual_conv.conv.stride == 2
    x = numpy.random.standard_normal((1, 4, 6, 6)).astype(numpy.float32)
    with kusari.using_config("train", False):
        expected = F.relu(unit.conv3(unit.conv2(unit.conv1(x))) + unit.residual_conv(x)).array
        numpy.testing.assert_allclose(unit(x).array, expected, rtol=1e-6)
