import numpy
import pytest
from scipy import special

import kusari.functions as F
from kusari import testing

N_VOCAB, DIM = 7, 3


@testing.parameterize(*testing.product({
    "reduce": ["mean", "no"],
    "n_samples": [1, 3],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBlackOut(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (4, DIM)).astype(self.dtype)
        t = numpy.random.randint(0, N_VOCAB, 4).astype(numpy.int32)
        W = numpy.random.uniform(-1, 1, (N_VOCAB, DIM)).astype(self.dtype)
        samples = numpy.random.randint(0, N_VOCAB, (4, self.n_samples)).astype(numpy.int32)
        return x, t, W, samples

    def forward(self, inputs, device):
        return F.black_out(*inputs, reduce=self.reduce),

    def forward_expected(self, inputs):
        x, t, W, samples = inputs
        x, W = x.astype(numpy.float64), W.astype(numpy.float64)
        loss = numpy.empty(len(t))
        for i in range(len(t)):
            labels = numpy.concatenate([[t[i]], samples[i]])
            p = special.softmax(W[labels] @ x[i])
            loss[i] = -numpy.log(p[0]) - numpy.log1p(-p[1:]).sum()
        if self.reduce == "mean":
            loss = loss.mean()
        return numpy.asarray(loss).astype(self.dtype),


def _args():
    return (numpy.ones((2, 3), numpy.float32), numpy.array([0, 1], numpy.int32),
            numpy.ones((4, 3), numpy.float32), numpy.zeros((2, 2), numpy.int32))


def test_sample_rows_mismatch_rejected():
    x, t, W, _ = _args()
    with pytest.raises(ValueError, match=r"black_out: samples.shape\[0\]=3 does not match x.shape\[0\]=2"):
        F.black_out(x, t, W, numpy.zeros((3, 2), numpy.int32))


def test_samples_out_of_range_rejected():
    x, t, W, _ = _args()
    with pytest.raises(ValueError, match=r"black_out: samples values must be in \[0, 4\), found -1"):
        F.black_out(x, t, W, numpy.full((2, 2), -1, numpy.int32))


def test_labels_mismatch_rejected():
    x, _, W, s = _args()
    with pytest.raises(ValueError, match=r"black_out: t.shape=\(3,\) does not match x.shape\[0\]=2"):
        F.black_out(x, numpy.zeros(3, numpy.int32), W, s)


def test_feature_size_mismatch_rejected():
    x, t, _, s = _args()
    with pytest.raises(ValueError, match=r"black_out: x.shape\[1\]=3 does not match W.shape\[1\]=2"):
        F.black_out(x, t, numpy.ones((4, 2), numpy.float32), s)


def test_weight_dtype_mismatch_rejected():
    x, t, W, s = _args()
    with pytest.raises(TypeError, match=r"black_out: dtypes must match \(x.dtype=float32, W.dtype=float64\)"):
        F.black_out(x, t, W.astype(numpy.float64), s)


def test_bad_reduce_rejected():
    with pytest.raises(ValueError, match="black_out: reduce must be 'mean' or 'no', got 'sum'"):
        F.black_out(*_args(), reduce="sum")
