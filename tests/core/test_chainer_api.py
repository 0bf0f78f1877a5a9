"""Chainer v7 public API that ported scripts and test suites use (issue 36, item 4 and 5)."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import FunctionNode, Variable
from kusari.utils import type_check


def test_variable_mean_takes_weights_and_keepdims():
    x = Variable(numpy.array([[1.0, 2.0], [3.0, 5.0]], numpy.float32))
    assert float(x.mean().array) == 2.75
    w = numpy.array([1.0, 3.0], numpy.float32)
    numpy.testing.assert_allclose(x.mean(axis=1, weights=w).array, [1.75, 4.5])
    assert x.mean(0, keepdims=True).shape == (1, 2)
    y = x.mean(axis=1, weights=w)
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, [[0.25, 0.75], [0.25, 0.75]])


def test_floordiv_on_variables_has_no_gradient():
    x = Variable(numpy.array([-3.5, 7.0], numpy.float32))
    assert (x // 2).array.tolist() == [-2.0, 3.0]
    assert (7 // Variable(numpy.array([2.0, -2.0], numpy.float32))).array.tolist() == [3.0, -4.0]
    assert (x // 2).dtype == numpy.float32
    assert (x // 2).creator is None or not (x // 2).requires_grad


class _Scale(FunctionNode):
    def forward(self, inputs):
        return inputs[0] * 3, inputs[1] * 2

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3, grad_outputs[1] * 2


def test_backward_accumulate_adds_to_the_given_gradients():
    a = Variable(numpy.ones(2, numpy.float32))
    b = Variable(numpy.ones(2, numpy.float32))
    node = _Scale()
    node.apply((a, b))
    gy = (Variable(numpy.ones(2, numpy.float32)), Variable(numpy.ones(2, numpy.float32)))
    old = Variable(numpy.full(2, 10.0, numpy.float32))
    ga, gb = node.backward_accumulate((0, 1), gy, (old, None))
    assert ga.array.tolist() == [13.0, 13.0] and gb.array.tolist() == [2.0, 2.0]
    # a backward that returns one gradient per input, for a subset of targets
    gb_only, = node.backward_accumulate((1,), gy, (None,))
    assert gb_only.array.tolist() == [2.0, 2.0]


def test_chainlist_item_assignment_deletion_and_iadd():
    cl = kusari.ChainList(L.Linear(2, 3), L.Linear(3, 4))
    cl[1] = L.Linear(3, 5)
    assert cl[1].out_size == 5 and cl[1].name == "1"
    with pytest.raises(TypeError, match="expected a Link, got int"):
        cl[0] = 3
    cl += [L.Linear(5, 6)]
    cl += kusari.ChainList(L.Linear(6, 7))
    assert [c.out_size for c in cl] == [3, 5, 6, 7]
    del cl[0]
    assert [c.name for c in cl] == ["0", "1", "2"]
    assert sorted(name for name, _ in cl.namedparams()) == ["/0/W", "/0/b", "/1/W", "/1/b", "/2/W", "/2/b"]
    with pytest.raises(TypeError, match="got int"):
        cl += 1
    cl[1:] = [L.Linear(5, 8)]
    assert [c.out_size for c in cl] == [5, 8] and cl[1].name == "1"


def test_link_from_params_says_which_class_lacks_it():
    with pytest.raises(NotImplementedError, match="Chain does not implement from_params"):
        kusari.Chain.from_params(numpy.zeros(2))


def test_invalid_type_is_a_value_and_type_error_raised_by_the_checks():
    assert issubclass(type_check.InvalidType, ValueError) and issubclass(type_check.InvalidType, TypeError)
    with pytest.raises(type_check.InvalidType, match="relu: x must be a floating-point array"):
        F.relu(numpy.zeros(2, numpy.int32))


def test_op_modules_resolve_as_in_chainer():
    assert F.dropout.__name__ == "dropout"                      # the function
    assert F.noise.dropout.Dropout.__name__ == "Dropout"        # the module's FunctionNode class
    import kusari.functions.rnn.n_step_lstm as n_step_lstm
    assert n_step_lstm.n_step_lstm is F.n_step_lstm
    assert F.array.im2col.im2col is F.im2col


def test_mixed16_is_chainers_dtype_name():
    assert repr(kusari.mixed16) == "dtype('mixed16')" and kusari.mixed16 == "mixed16"
    assert kusari.mixed16.dtype == numpy.float16 and numpy.dtype(kusari.mixed16) == numpy.float16
    with kusari.using_config("dtype", kusari.mixed16):
        assert L.Linear(2, 3).W.dtype == numpy.float16
        assert kusari.get_dtype(map_mixed16=numpy.float32) == numpy.float32


def test_experimental_warns_unless_disabled(monkeypatch):
    from kusari import utils
    with pytest.warns(FutureWarning, match="foo is experimental"):
        utils.experimental("foo")
    monkeypatch.setattr(kusari, "disable_experimental_feature_warning", True)
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        utils.experimental("foo")


class _AccumulateOnly(FunctionNode):
    """A Chainer node that defines backward_accumulate and no backward."""

    def forward(self, inputs):
        return inputs[0] * 2,

    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        g = grad_outputs[0] * 2
        return (g if grad_inputs[0] is None else g + grad_inputs[0]),


def test_a_node_with_only_backward_accumulate_backpropagates():
    x = Variable(numpy.array([1.0, 2.0], numpy.float32))
    y = _AccumulateOnly().apply((x,))[0] + _AccumulateOnly().apply((x,))[0]
    y.grad = numpy.ones(2, numpy.float32)
    y.backward()
    assert x.grad.tolist() == [4.0, 4.0]


def test_chainer_module_names():
    import collections.abc
    from kusari import utils
    assert kusari.basic_math is F.math.basic_math
    assert utils.collections_abc is collections.abc


def test_conv_nd_names_are_the_nd_im2col():
    from kusari.utils import conv_nd
    x = numpy.random.rand(2, 3, 4, 5, 6).astype(numpy.float32)
    col = conv_nd.im2col_nd_cpu(x, (2, 3, 2), (1, 2, 1), (1, 0, 1))
    assert col.shape == (2, 3, 2, 3, 2, 5, 2, 7)
    # col2im sums every patch back: with a unit column, each pixel counts the windows covering it
    counts = conv_nd.col2im_nd_cpu(numpy.ones_like(col), (1, 2, 1), (1, 0, 1), (4, 5, 6))
    # axis 0 and 2: every pixel in 2 windows; axis 1 (k=3, s=2): the middle pixel in 2, the rest in 1
    assert counts.shape == x.shape and counts.max() == 8 and counts.min() == 4
    assert conv_nd.as_tuple(2, 3) == (2, 2, 2)
    with pytest.raises(ValueError, match="expected 3 values"):
        conv_nd.as_tuple((1, 2), 3)


def test_memory_layouts_names_load():
    assert kusari.memory_layouts.CUDNN_CHANNEL_FIRST_X is None
    assert kusari.memory_layouts.CUDNN_CHANNEL_LAST_X == "CUDNN_CHANNEL_LAST_X"


def test_from_params_builds_links_holding_copies():
    src = L.Linear(3, 2)
    lin = L.Linear.from_params(src.W, src.b)
    assert lin.W.shape == (2, 3) and numpy.array_equal(lin.b.array, src.b.array)
    assert lin.W.array is not src.W.array
    assert L.Linear.from_params(src.W.array).b is None
    conv = L.Convolution2D(4, 6, 3, groups=2)
    conv2 = L.Convolution2D.from_params(conv.W, conv.b, stride=2, pad=1, groups=2)
    assert conv2.W.shape == conv.W.shape and conv2.stride == 2 and conv2.pad == 1 and conv2.groups == 2
    nd = L.ConvolutionND(3, 2, 5, 2)
    nd2 = L.ConvolutionND.from_params(nd.W, nd.b)
    assert nd2.ndim == 3 and numpy.array_equal(nd2.W.array, nd.W.array)
    emb = L.EmbedID.from_params(L.EmbedID(7, 4).W, ignore_label=-1)
    assert emb.W.shape == (7, 4) and emb.ignore_label == -1
    with pytest.raises(NotImplementedError, match="DeconvolutionND does not implement from_params"):
        L.DeconvolutionND.from_params(nd.W)
