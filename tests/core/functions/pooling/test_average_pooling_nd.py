import itertools

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def _reference_average_pool(x, ksize, stride, pad, pad_value):
    dims = x.shape[2:]
    outs = [(d + 2 * p - k) // s + 1 for d, k, s, p in zip(dims, ksize, stride, pad)]
    y = numpy.empty(x.shape[:2] + tuple(outs), numpy.float64)
    for o in itertools.product(*(range(n) for n in outs)):
        window = tuple(slice(max(i * s - p, 0), min(i * s - p + k, d))
                       for i, s, p, k, d in zip(o, stride, pad, ksize, dims))
        block = x[(slice(None), slice(None)) + window]
        count = numpy.prod(ksize) if pad_value == 0 else numpy.prod(block.shape[2:])
        y[(Ellipsis,) + o] = block.sum(axis=tuple(range(2, x.ndim))) / count
    return y


@testing.parameterize(*testing.product([
    [{"dims": (7,)}, {"dims": (6, 5)}, {"dims": (5, 4, 3)}],
    [{"ksize": 2, "stride": None, "pad": 0}, {"ksize": 3, "stride": 2, "pad": 1},
     {"ksize": (2, 3, 2), "stride": 1, "pad": (1, 0, 1)}],
    [{"pad_value": 0, "named": True}, {"pad_value": 0, "named": False},
     {"pad_value": None, "named": False}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestAveragePoolingND(testing.FunctionTestCase):
    def setup(self):
        nd = len(self.dims)
        if isinstance(self.ksize, tuple):
            self.ksize, self.pad = self.ksize[:nd], self.pad[:nd]
        self.args = tuple((v,) * nd if isinstance(v, int) else v
                          for v in (self.ksize, self.stride or self.ksize, self.pad))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3) + self.dims).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        nd = len(self.dims)
        if not self.named:
            return F.average_pooling_nd(x, self.ksize, self.stride, self.pad, self.pad_value),
        func = getattr(F, f"average_pooling_{nd}d")
        return func(x, self.ksize, self.stride, self.pad),

    def forward_expected(self, inputs):
        x, = inputs
        y = _reference_average_pool(x.astype(numpy.float64), *self.args, self.pad_value)
        return y.astype(self.dtype),


def test_pad_value_none_excludes_padding():
    x = numpy.ones((1, 1, 3, 3), numpy.float32)
    counted = F.average_pooling_nd(x, 3, stride=1, pad=1)
    excluded = F.average_pooling_nd(x, 3, stride=1, pad=1, pad_value=None)
    numpy.testing.assert_allclose(counted.array[0, 0, 0, 0], 4 / 9, rtol=1e-6)
    numpy.testing.assert_allclose(excluded.array, numpy.ones((1, 1, 3, 3)), rtol=1e-6)


def test_gradient_is_spread_evenly():
    x = kusari.Variable(numpy.zeros((1, 1, 4), numpy.float64))
    y = F.average_pooling_1d(x, 2)
    y.grad = numpy.array([[[1.0, 3.0]]])
    y.backward()
    numpy.testing.assert_allclose(x.grad, [[[0.5, 0.5, 1.5, 1.5]]])


def test_bad_pad_value_rejected():
    with pytest.raises(ValueError, match="average_pooling_nd: pad_value must be 0 or None, got 1"):
        F.average_pooling_nd(numpy.zeros((1, 1, 4), numpy.float32), 2, pad_value=1)


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="average_pooling_2d: x must be a floating-point array"):
        F.average_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int64), 2)


def test_wrong_ndim_rejected():
    with pytest.raises(ValueError, match="average_pooling_3d: x must be 5-dimensional, got 4"):
        F.average_pooling_3d(numpy.zeros((1, 1, 4, 4), numpy.float32), 2)


def test_window_too_large_rejected():
    with pytest.raises(ValueError, match=r"average_pooling_1d: window ksize=\(5,\) .* does not fit"):
        F.average_pooling_1d(numpy.zeros((1, 1, 4), numpy.float32), 5)


@pytest.mark.parametrize("pad_value", [0, None])
def test_array_and_graph_backward_agree_bit_for_bit(pad_value):
    x = numpy.random.RandomState(3).standard_normal((2, 3, 7, 5)).astype(numpy.float32)
    grads = []
    for double in (False, True):
        xv = kusari.Variable(x)
        y = F.average_pooling_nd(xv, 3, 2, 1, pad_value=pad_value)
        y.grad = numpy.cos(numpy.arange(y.size, dtype=numpy.float32)).reshape(y.shape)
        y.backward(enable_double_backprop=double)
        grads.append(xv.grad)
    assert grads[0].dtype == numpy.float32
    numpy.testing.assert_array_equal(*grads)
