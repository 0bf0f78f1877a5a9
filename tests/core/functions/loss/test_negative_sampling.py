import numpy
import pytest

import kusari.functions as F
from kusari import testing

N_VOCAB, DIM, SAMPLE_SIZE = 6, 3, 2


@testing.parameterize(*testing.product({
    "reduce": ["sum", "no"],
    "t": [[0, 2, 5], [-1, 1, 3, 1]],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestNegativeSampling(testing.FunctionTestCase):
    def setup(self):
        n = len(self.t)
        self.negatives = numpy.random.randint(0, N_VOCAB, (n, SAMPLE_SIZE + 1)).astype(numpy.int32)

    def sampler(self, shape):
        assert shape == self.negatives.shape
        return self.negatives.copy()

    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (len(self.t), DIM)).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (N_VOCAB, DIM)).astype(self.dtype)
        return x, numpy.array(self.t, numpy.int32), W

    def forward(self, inputs, device):
        x, t, W = inputs
        return F.negative_sampling(x, t, W, self.sampler, SAMPLE_SIZE, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t, W = inputs
        x, W = x.astype(numpy.float64), W.astype(numpy.float64)
        loss = numpy.zeros(len(t))
        for i, label in enumerate(t):
            if label == -1:
                continue
            loss[i] = numpy.logaddexp(0, -W[label] @ x[i])
            for k in self.negatives[i, 1:]:
                loss[i] += numpy.logaddexp(0, W[k] @ x[i])
        if self.reduce == "sum":
            loss = loss.sum()
        return numpy.asarray(loss).astype(self.dtype),


def _args():
    x = numpy.ones((2, 3), numpy.float32)
    W = numpy.ones((4, 3), numpy.float32)
    return x, numpy.array([0, 1], numpy.int32), W


def test_return_samples():
    x, t, W = _args()
    negatives = numpy.array([[3, 2, 1], [0, 0, 3]], numpy.int32)
    loss, samples = F.negative_sampling(x, t, W, lambda shape: negatives.copy(), 2, return_samples=True)
    numpy.testing.assert_array_equal(samples, [[0, 2, 1], [1, 0, 3]])


def test_unknown_keyword_rejected():
    x, t, W = _args()
    with pytest.raises(TypeError, match="unexpected keyword argument"):
        F.negative_sampling(x, t, W, lambda shape: numpy.zeros(shape, numpy.int32), 2, foo=1)


def test_label_out_of_range_rejected():
    x, _, W = _args()
    with pytest.raises(ValueError, match=r"negative_sampling: t values must be in \[0, 4\) or equal ignore_label=-1, found 4"):
        F.negative_sampling(x, numpy.array([0, 4], numpy.int32), W, lambda s: numpy.zeros(s, numpy.int32), 2)


def test_sampler_output_out_of_range_rejected():
    x, t, W = _args()
    with pytest.raises(ValueError, match=r"negative_sampling: the sampler's output values must be in \[0, 4\), found 7"):
        F.negative_sampling(x, t, W, lambda s: numpy.full(s, 7, numpy.int32), 2)


def test_sampler_first_column_is_replaced_by_t_unchecked():
    # Column 0 of the samples is overwritten with t (as in Chainer), so its drawn values,
    # even out of range, must neither raise nor change the loss.
    x, t, W = _args()
    drawn = numpy.array([[1, 2, 3], [0, 1, 2]], numpy.int32)
    odd = drawn.copy()
    odd[:, 0] = 99
    want = F.negative_sampling(x, t, W, lambda s: drawn.copy(), 2, reduce="no").array
    got, samples = F.negative_sampling(x, t, W, lambda s: odd.copy(), 2, reduce="no",
                                       return_samples=True)
    numpy.testing.assert_array_equal(got.array, want)
    numpy.testing.assert_array_equal(samples[:, 0], t)


def test_sampler_output_shape_rejected():
    x, t, W = _args()
    with pytest.raises(ValueError, match=r"negative_sampling: sampler returned shape \(2, 2\), expected \(2, 3\)"):
        F.negative_sampling(x, t, W, lambda s: numpy.zeros((2, 2), numpy.int32), 2)


def test_dimension_mismatch_rejected():
    x, t, _ = _args()
    with pytest.raises(ValueError, match=r"negative_sampling: x.shape\[1\]=3 does not match W.shape\[1\]=2"):
        F.negative_sampling(x, t, numpy.ones((4, 2), numpy.float32), lambda s: numpy.zeros(s, numpy.int32), 2)


def test_bad_sample_size_rejected():
    x, t, W = _args()
    with pytest.raises(ValueError, match="negative_sampling: sample_size must be a non-negative integer, got -1"):
        F.negative_sampling(x, t, W, lambda s: numpy.zeros(s, numpy.int32), -1)
