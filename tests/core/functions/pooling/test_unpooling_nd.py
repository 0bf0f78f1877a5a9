import itertools

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def _reference_unpool(x, ksize, stride, pad, outsize):
    y = numpy.zeros(x.shape[:2] + tuple(outsize), numpy.float64)
    for i in itertools.product(*(range(n) for n in x.shape[2:])):
        for off in itertools.product(*(range(k) for k in ksize)):
            pos = tuple(a * s - p + o for a, s, p, o in zip(i, stride, pad, off))
            if all(0 <= q < d for q, d in zip(pos, outsize)):
                y[(Ellipsis,) + pos] += x[(Ellipsis,) + i]
    return y


@testing.parameterize(*testing.product([
    [{"dims": (4,)}, {"dims": (3, 4)}, {"dims": (2, 3, 2)}],
    # outsize "short": 2 * d - 1, which still pools back to d (ksize 2 with cover_all)
    [{"ksize": 2, "stride": None, "pad": 0, "cover_all": True, "outsize": None},
     {"ksize": 3, "stride": 2, "pad": 1, "cover_all": True, "outsize": None},
     {"ksize": 3, "stride": 2, "pad": 1, "cover_all": False, "outsize": None},
     {"ksize": 2, "stride": 2, "pad": 0, "cover_all": True, "outsize": "short"}],
    [{"named": True}, {"named": False}],
    [{"dtype": numpy.float32}, {"dtype": numpy.float64}],
]))
class TestUnpoolingND(testing.FunctionTestCase):
    def setup(self):
        nd = len(self.dims)
        stride = self.stride or self.ksize
        self.args = ((self.ksize,) * nd, (stride,) * nd, (self.pad,) * nd)
        if self.outsize is None:
            extra = 1 - stride if self.cover_all else 0
            self.out = tuple(stride * (d - 1) + self.ksize - 2 * self.pad + extra for d in self.dims)
        else:
            self.out = tuple(2 * d - 1 for d in self.dims)

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3) + self.dims).astype(self.dtype),

    def forward(self, inputs, device):
        x, = inputs
        func = getattr(F, f"unpooling_{len(self.dims)}d") if self.named else F.unpooling_nd
        outsize = None if self.outsize is None else self.out
        return func(x, self.ksize, self.stride, self.pad, outsize, self.cover_all),

    def forward_expected(self, inputs):
        x, = inputs
        return _reference_unpool(x.astype(numpy.float64), *self.args, self.out).astype(self.dtype),


def test_unpooling_inverts_non_overlapping_max_pooling():
    x = numpy.random.RandomState(0).uniform(size=(2, 3, 4, 5)).astype(numpy.float32)
    y = F.unpooling_2d(x, 2, cover_all=False)
    assert y.shape == (2, 3, 8, 10)
    numpy.testing.assert_array_equal(F.max_pooling_2d(y, 2).array, x)


def test_cover_all_default_gives_the_smallest_output():
    x = numpy.zeros((1, 1, 4), numpy.float32)
    assert F.unpooling_1d(x, 2).shape == (1, 1, 7)
    assert F.max_pooling_1d(F.unpooling_1d(x, 2), 2).shape == (1, 1, 4)


def test_inconsistent_outsize_rejected():
    x = numpy.zeros((1, 1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"unpooling_2d: outsize=\(9, 6\) pools back to \(5, 3\), which "
                                         r"does not match x.shape\[2:\]=\(3, 3\)"):
        F.unpooling_2d(x, 2, outsize=(9, 6))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="unpooling_1d: x must be a floating-point array"):
        F.unpooling_1d(numpy.zeros((1, 1, 3), numpy.int32), 2)


def test_wrong_ndim_rejected():
    with pytest.raises(ValueError, match="unpooling_3d: x must be 5-dimensional, got 3"):
        F.unpooling_3d(numpy.zeros((1, 1, 3), numpy.float32), 2)


def test_empty_output_rejected():
    with pytest.raises(ValueError, match=r"unpooling_1d: ksize=\(1,\), stride=\(1,\), pad=\(2,\) give an "
                                         r"empty output"):
        F.unpooling_1d(numpy.zeros((1, 1, 3), numpy.float32), 1, pad=2)


def test_zero_output_size_gives_an_empty_output_and_zero_gradient():
    x = kusari.Variable(numpy.ones((2, 3, 3, 2), numpy.float32))
    y = F.unpooling_2d(x, 1, stride=1, pad=1)   # sizes 1*(3-1)+1-2 = 1 and 0
    assert y.shape == (2, 3, 1, 0)
    y.grad = numpy.ones(y.shape, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, numpy.zeros(x.shape, numpy.float32))
