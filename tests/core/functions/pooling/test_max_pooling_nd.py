import itertools
import math

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def _out_size(d, k, s, p, cover_all):
    if cover_all:
        return math.ceil((d + 2 * p - k) / s) + 1
    return (d + 2 * p - k) // s + 1


def _reference_max_pool(x, ksize, stride, pad, cover_all):
    dims = x.shape[2:]
    outs = [_out_size(d, k, s, p, cover_all) for d, k, s, p in zip(dims, ksize, stride, pad)]
    y = numpy.empty(x.shape[:2] + tuple(outs), numpy.float64)
    for o in itertools.product(*(range(n) for n in outs)):
        window = tuple(slice(max(i * s - p, 0), min(i * s - p + k, d))
                       for i, s, p, k, d in zip(o, stride, pad, ksize, dims))
        y[(Ellipsis,) + o] = x[(slice(None), slice(None)) + window].max(
            axis=tuple(range(2, x.ndim)))
    return y


@testing.parameterize(*testing.product([
    [{"dims": (7,)}, {"dims": (6, 5)}, {"dims": (5, 4, 3)}],
    [{"ksize": 2, "stride": None, "pad": 0}, {"ksize": 3, "stride": 2, "pad": 1},
     {"ksize": 2, "stride": 1, "pad": 1}],
    [{"cover_all": True}, {"cover_all": False}],
    [{"named": True}, {"named": False}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestMaxPoolingND(testing.FunctionTestCase):
    def setup(self):
        nd = len(self.dims)
        self.args = tuple((v,) * nd if isinstance(v, int) else v
                          for v in (self.ksize, self.stride or self.ksize, self.pad))

    def generate_inputs(self):
        # A permutation: no ties, so the argmax is stable under the numerical-gradient probes.
        shape = (2, 3) + self.dims
        x = numpy.random.permutation(numpy.prod(shape)).reshape(shape)
        return (x / x.size * 2 - 1).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        nd = len(self.dims)
        func = getattr(F, f"max_pooling_{nd}d") if self.named else F.max_pooling_nd
        return func(x, self.ksize, self.stride, self.pad, cover_all=self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference_max_pool(x.astype(numpy.float64), *self.args, self.cover_all).astype(self.dtype),


def test_return_indices_point_at_window_maxima():
    x = numpy.random.RandomState(1).permutation(2 * 3 * 6 * 8).reshape(2, 3, 6, 8).astype(numpy.float32)
    y, indexes = F.max_pooling_2d(x, 2, return_indices=True)
    windows = x.reshape(2, 3, 3, 2, 4, 2).transpose(0, 1, 2, 4, 3, 5).reshape(2, 3, 3, 4, 4)
    numpy.testing.assert_array_equal(indexes, windows.argmax(axis=-1))
    numpy.testing.assert_array_equal(y.array, windows.max(axis=-1))


def test_padding_never_wins():
    x = -numpy.ones((1, 1, 3, 3), numpy.float32)
    y = F.max_pooling_2d(x, 3, stride=1, pad=1)
    numpy.testing.assert_array_equal(y.array, -numpy.ones((1, 1, 3, 3), numpy.float32))


def test_window_entirely_in_padding_gives_zero_and_no_gradient():
    # ksize 2, stride 2, pad 1 over 5 elements: windows [-1, 1), [1, 3), [3, 5), [5, 7)
    x = kusari.Variable(-numpy.arange(1, 6, dtype=numpy.float64).reshape(1, 1, 5))
    y = F.max_pooling_1d(x, 2, pad=1)
    numpy.testing.assert_array_equal(y.array[0, 0], [-1.0, -2.0, -4.0, 0.0])
    y.grad = numpy.ones((1, 1, 4))
    y.backward()
    numpy.testing.assert_array_equal(x.grad[0, 0], [1.0, 1.0, 0.0, 1.0, 0.0])


def test_cover_all_adds_a_partial_window():
    x = numpy.arange(5, dtype=numpy.float32).reshape(1, 1, 5)
    assert F.max_pooling_1d(x, 2, cover_all=True).shape == (1, 1, 3)
    assert F.max_pooling_1d(x, 2, cover_all=False).shape == (1, 1, 2)
    numpy.testing.assert_array_equal(F.max_pooling_1d(x, 2, cover_all=True).array[0, 0], [1, 3, 4])


def test_gradient_goes_to_the_argmax_only():
    x = kusari.Variable(numpy.array([[[1.0, 3.0, 2.0, 0.0]]], numpy.float32))
    y = F.max_pooling_1d(x, 2)
    y.grad = numpy.array([[[10.0, 20.0]]], numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [[[0.0, 10.0, 20.0, 0.0]]])


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="max_pooling_2d: x must be a floating-point array"):
        F.max_pooling_2d(numpy.zeros((1, 1, 4, 4), numpy.int32), 2)


def test_wrong_ndim_rejected():
    with pytest.raises(ValueError, match="max_pooling_2d: x must be 4-dimensional, got 3"):
        F.max_pooling_2d(numpy.zeros((1, 4, 4), numpy.float32), 2)
    with pytest.raises(ValueError, match=r"max_pooling_nd: x must have at least 3 dimensions .* \(4, 4\)"):
        F.max_pooling_nd(numpy.zeros((4, 4), numpy.float32), 2)


def test_bad_window_arguments_rejected():
    x = numpy.zeros((1, 1, 4, 4), numpy.float32)
    with pytest.raises(ValueError, match=r"max_pooling_2d: ksize must have 2 entries, got \(2, 2, 2\)"):
        F.max_pooling_2d(x, (2, 2, 2))
    with pytest.raises(ValueError, match=r"max_pooling_2d: ksize must be positive, got \(0, 0\)"):
        F.max_pooling_2d(x, 0)
    with pytest.raises(ValueError, match=r"max_pooling_2d: stride must be positive, got \(0, 1\)"):
        F.max_pooling_2d(x, 2, stride=(0, 1))
    with pytest.raises(ValueError, match=r"max_pooling_2d: pad must be non-negative, got \(-1, -1\)"):
        F.max_pooling_2d(x, 2, pad=-1)
    with pytest.raises(ValueError, match=r"max_pooling_2d: window ksize=\(5, 5\) .* does not fit in "
                                         r"x.shape\[2:\]=\(4, 4\)"):
        F.max_pooling_2d(x, 5, cover_all=False)


@pytest.mark.parametrize("with_nan", [False, True])
@pytest.mark.parametrize("ksize,stride,pad", [(3, 2, 1), (2, 2, 0), (2, 1, 1)])
def test_indexes_follow_argmax_on_ties_and_nan(ksize, stride, pad, with_nan):
    # Few distinct values make ties; as with numpy's argmax the first maximum (or first NaN) wins.
    rng = numpy.random.RandomState(5)
    x = rng.randint(0, 3, (2, 3, 7, 6)).astype(numpy.float32)
    if with_nan:
        x[0, 0, 2, 3] = x[1, 2, 0, 0] = x[1, 2, 1, 1] = numpy.nan
    y, indexes = F.max_pooling_2d(x, ksize, stride, pad, return_indices=True)
    padded = numpy.pad(x, ((0, 0), (0, 0), (pad, pad + ksize), (pad, pad + ksize)),
                       constant_values=-numpy.inf)
    for i, j in itertools.product(range(y.shape[2]), range(y.shape[3])):
        window = padded[:, :, i * stride:i * stride + ksize, j * stride:j * stride + ksize]
        flat = window.reshape(2, 3, -1)
        numpy.testing.assert_array_equal(indexes[:, :, i, j], flat.argmax(axis=-1))
        numpy.testing.assert_array_equal(y.array[:, :, i, j], flat.max(axis=-1))
    assert numpy.isnan(y.array).any() == with_nan


@pytest.mark.parametrize("dims,ksize,pad", [((8, 8), 2, 0), ((7, 6), 2, 0), ((6, 6), 3, 1)])
def test_backward_sends_gy_to_argmax_and_exact_zeros_elsewhere(dims, ksize, pad):
    # Non-overlapping windows (stride == ksize), with and without cropped padding. gy holds NaN,
    # inf and -0.0: each must reach only its argmax, bit for bit, and every other element is +0.0.
    rng = numpy.random.RandomState(2)
    x = rng.permutation(2 * 3 * dims[0] * dims[1]).reshape((2, 3) + dims).astype(numpy.float32)
    xv = kusari.Variable(x)
    y, indexes = F.max_pooling_2d(xv, ksize, pad=pad, return_indices=True)
    gy = rng.standard_normal(y.shape).astype(numpy.float32)
    gy[0, 0, 0, 0], gy[0, 1, 0, 0], gy[1, 2, 0, 0] = numpy.nan, numpy.inf, -0.0
    y.grad = gy
    y.backward()
    expected = numpy.zeros_like(x)
    for n, c, i, j in numpy.ndindex(*y.shape):
        di, dj = divmod(int(indexes[n, c, i, j]), ksize)
        expected[n, c, i * ksize + di - pad, j * ksize + dj - pad] = gy[n, c, i, j]
    numpy.testing.assert_array_equal(xv.grad.view(numpy.int32), expected.view(numpy.int32))


def test_array_and_graph_backward_agree_bit_for_bit():
    x = numpy.random.RandomState(3).standard_normal((2, 3, 7, 5)).astype(numpy.float32)
    grads = []
    for double in (False, True):
        xv = kusari.Variable(x)
        y = F.max_pooling_2d(xv, 3, 2, 1)
        y.grad = numpy.cos(numpy.arange(y.size, dtype=numpy.float32)).reshape(y.shape)
        y.backward(enable_double_backprop=double)
        grads.append(xv.grad)
    numpy.testing.assert_array_equal(*grads)
