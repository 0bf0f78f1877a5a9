import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "case": [
        {"x_shape": (4, 3), "n_batch_axes": 1},
        {"x_shape": (4, 2, 3), "n_batch_axes": 1},  # trailing axes flattened into 6 features
        {"x_shape": (2, 3, 5), "n_batch_axes": 2},
    ],
    "nobias": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestLinear(testing.FunctionTestCase):
    def generate_inputs(self):
        k = self.case["n_batch_axes"]
        n_in = int(numpy.prod(self.case["x_shape"][k:]))
        x = numpy.random.uniform(-1, 1, self.case["x_shape"]).astype(self.dtype)
        W = numpy.random.uniform(-1, 1, (2, n_in)).astype(self.dtype)
        if self.nobias:
            return x, W
        return x, W, numpy.random.uniform(-1, 1, (2,)).astype(self.dtype)

    def forward(self, inputs, device):
        return F.linear(*inputs, n_batch_axes=self.case["n_batch_axes"]),

    def forward_expected(self, inputs):
        x, W = inputs[:2]
        k = self.case["n_batch_axes"]
        batch = x.shape[:k]
        y = x.reshape(int(numpy.prod(batch)), -1).astype(numpy.float64) @ W.astype(numpy.float64).T
        if len(inputs) == 3:
            y = y + inputs[2]
        return y.reshape(batch + (W.shape[0],)).astype(self.dtype),


def _xw(x_shape, w_shape, dtype=numpy.float32):
    return numpy.ones(x_shape, dtype), numpy.ones(w_shape, numpy.float32)


def test_feature_mismatch():
    x, W = _xw((4, 5), (2, 3))
    with pytest.raises(ValueError, match=r"linear: x.shape\[1\]=5 does not match W.shape\[1\]=3"):
        F.linear(x, W)
    x, W = _xw((4, 2, 2), (2, 3))
    with pytest.raises(ValueError, match=r"linear: x.shape\[1:\]=\(2, 2\) \(4 features\) does not "
                                         r"match W.shape\[1\]=3"):
        F.linear(x, W)


def test_bad_shapes_and_dtypes():
    x, W = _xw((4, 3), (2, 3))
    with pytest.raises(ValueError, match=r"linear: b must have shape \(2,\), got b.shape=\(3,\)"):
        F.linear(x, W, numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match="linear: W must be 2-dimensional"):
        F.linear(x, W.reshape(2, 3, 1))
    with pytest.raises(ValueError, match="linear: x must have more than n_batch_axes=2 axes"):
        F.linear(x, W, n_batch_axes=2)
    with pytest.raises(ValueError, match="linear: n_batch_axes must be a positive integer, got 0"):
        F.linear(x, W, n_batch_axes=0)
    with pytest.raises(TypeError, match="linear: x must be a floating-point array"):
        F.linear(x.astype(numpy.int64), W)
    with pytest.raises(TypeError, match=r"linear: dtypes must match \(x.dtype=float64, W.dtype=float64, "
                                        r"b.dtype=float32\)"):  # W is cast to x's dtype, b must have it
        F.linear(x.astype(numpy.float64), W, numpy.zeros(2, numpy.float32))


def test_bias_dtype_mismatch_is_named():
    x, W = _xw((4, 3), (2, 3))
    with pytest.raises(TypeError, match=r"linear: dtypes must match \(x.dtype=float32, W.dtype=float32, "
                                        r"b.dtype=float64\)"):
        F.linear(x, W, numpy.zeros(2, numpy.float64))
