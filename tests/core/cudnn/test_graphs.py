"""kusari.cudnn's graphs validate in nvidia-cudnn-frontend without a GPU (skipped where it is absent):
the operations, tensors, paddings and output shapes kusari describes are ones cuDNN accepts."""
import numpy
import pytest

from kusari import cudnn
from kusari.cudnn import batch_normalization as cudnn_bn
from kusari.cudnn import convolution as cudnn_convolution
from kusari.utils import conv

pytestmark = pytest.mark.skipif(not cudnn.available(), reason="nvidia-cudnn-frontend (and libcudnn) not installed")


def _lib():
    return cudnn._import_frontend()[0]


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float16])
@pytest.mark.parametrize("x_shape, k, stride, pad, dilate, groups, cover_all", [
    ((2, 4, 9, 9), 3, 1, 1, 1, 1, False), ((2, 4, 9, 9), 3, 2, 0, 1, 1, True),
    ((2, 4, 9, 9), 3, 1, 2, 2, 2, False), ((1, 8, 7, 7), 3, 1, 1, 1, 8, False),
    ((2, 3, 1, 20), (1, 5), (1, 2), (0, 1), 1, 1, False)])   # a 1-D case as cuDNN gets it
def test_convolution_graphs_validate(dtype, x_shape, k, stride, pad, dilate, groups, cover_all):
    lib = _lib()
    k = conv.as_tuple(k, 2)
    stride, pad, dilate = (conv.as_tuple(v, 2) for v in (stride, pad, dilate))
    x = numpy.zeros(x_shape, dtype)
    w = numpy.zeros((8, x_shape[1] // groups) + k, dtype)
    outs = tuple(conv.get_conv_outsize(x_shape[2 + i], k[i], stride[i], pad[i], cover_all, dilate[i])
                 for i in range(2))
    post = cudnn_convolution.post_padding(x_shape[2:], k, outs, stride, pad, dilate)
    y = numpy.zeros((x_shape[0], 8) + outs, dtype)
    geometry = (stride, pad, post, dilate)
    for op, inputs, role, out in (("conv_fprop", {"x": x, "w": w}, "y", y),
                                  ("conv_dgrad", {"dy": y, "w": w}, "dx", x),
                                  ("conv_wgrad", {"x": x, "dy": y}, "dw", w)):
        graph, tensors = cudnn_convolution.describe(lib, op, inputs, role, out, geometry)
        graph.validate()
        assert tensors[role].get_dim() == list(out.shape), op


@pytest.mark.parametrize("groups", [1, 2])
def test_3d_convolution_graphs_validate(groups):
    lib = _lib()
    x = numpy.zeros((2, 4, 5, 6, 7), numpy.float32)
    w = numpy.zeros((6, 4 // groups, 3, 3, 3), numpy.float32)
    geometry = ((1, 2, 1), (1, 1, 0), (1, 1, 0), (1, 1, 2))
    outs = tuple(conv.get_conv_outsize(d, 3, s, p, False, dl) for d, s, p, dl in
                 zip(x.shape[2:], geometry[0], geometry[1], geometry[3]))
    y = numpy.zeros((2, 6) + outs, numpy.float32)
    for op, inputs, role, out in (("conv_fprop", {"x": x, "w": w}, "y", y),
                                  ("conv_dgrad", {"dy": y, "w": w}, "dx", x),
                                  ("conv_wgrad", {"x": x, "dy": y}, "dw", w)):
        graph, tensors = cudnn_convolution.describe(lib, op, inputs, role, out, geometry)
        graph.validate()
        assert tensors[role].get_dim() == list(out.shape), op


def test_channels_last_input_is_described_by_its_strides():
    lib = _lib()
    x = numpy.zeros((2, 9, 9, 16), numpy.float32).transpose(0, 3, 1, 2)
    w = numpy.zeros((8, 16, 3, 3), numpy.float32)
    y = numpy.zeros((2, 8, 9, 9), numpy.float32)
    graph, tensors = cudnn_convolution.describe(lib, "conv_fprop", {"x": x, "w": w}, "y", y,
                                                ((1, 1), (1, 1), (1, 1), (1, 1)))
    graph.validate()
    assert tensors["x"].get_stride() == [1296, 1, 144, 16]


@pytest.mark.parametrize("shape", [(8, 3, 5, 5), (16, 4, 1, 1), (4, 2, 7, 1)])
def test_batch_normalization_graphs_validate(shape):
    lib = _lib()
    f32 = numpy.float32
    x = numpy.zeros(shape, f32)
    c = shape[1]
    graph, tensors = cudnn_bn.describe_training(lib, x)
    graph.validate()
    assert tensors["y"].get_dim() == list(shape)
    channel = numpy.zeros((1, c, 1, 1), f32)
    feed = {"x": x, "dy": x, "scale": channel, "mean": channel, "inv_var": channel, "dx": x,
            "dscale": channel, "dbias": channel, "bias": channel}
    graph, tensors = cudnn_bn.describe_backward(lib, feed)
    graph.validate()
    assert tensors["dx"].get_dim() == list(shape)
    graph, tensors = cudnn_bn.describe_inference(lib, feed)
    graph.validate()
    assert tensors["y"].get_dim() == list(shape)


def test_mixed16_batch_normalization_graphs_validate():
    """A float16 x with float32 scale, bias and statistics, as mixed16 has them."""
    lib = _lib()
    x = numpy.zeros((8, 3, 5, 5), numpy.float16)
    graph, tensors = cudnn_bn.describe_training(lib, x, param_dtype=numpy.float32)
    graph.validate()
    assert tensors["y"].get_data_type() == lib.data_type.HALF
    assert tensors["scale"].get_data_type() == lib.data_type.FLOAT
    channel = numpy.zeros((1, 3, 1, 1), numpy.float32)
    feed = {"x": x, "dy": x, "scale": channel, "mean": channel, "inv_var": channel, "dx": x,
            "dscale": channel, "dbias": channel}
    graph, tensors = cudnn_bn.describe_backward(lib, feed)
    graph.validate()
    assert tensors["dx"].get_data_type() == lib.data_type.HALF
