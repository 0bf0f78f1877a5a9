import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "x_shape": [(5,), (2, 3)],
    "ignore_label": [None, -1],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestEmbedID(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.randint(0, 4, self.x_shape).astype(numpy.int32)
        if self.ignore_label is not None:
            x.flat[1] = self.ignore_label
        W = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        return x, W

    def forward(self, inputs, device):
        x, W = inputs
        return F.embed_id(x, W, ignore_label=self.ignore_label),

    def forward_expected(self, inputs):
        x, W = inputs
        y = numpy.zeros(x.shape + (W.shape[1],), self.dtype)
        for idx in numpy.ndindex(*x.shape):
            if x[idx] != self.ignore_label:
                y[idx] = W[x[idx]]
        return y,


def test_gradient_sums_repeated_ids_and_skips_ignored():
    W = kusari.Variable(numpy.zeros((3, 2), numpy.float32))
    y = F.embed_id(numpy.array([2, 0, 2, -1], numpy.int32), W, ignore_label=-1)
    y.grad = numpy.arange(8, dtype=numpy.float32).reshape(4, 2)
    y.backward()
    # row 2 gets the gradients of positions 0 and 2; row 1 none; position 3 is ignored
    numpy.testing.assert_array_equal(W.grad, [[2, 3], [0, 0], [0 + 4, 1 + 5]])


def test_rejects_out_of_range_ids():
    W = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(ValueError, match=r"embed_id: ids must satisfy 0 <= x < len\(W\)=3"):
        F.embed_id(numpy.array([0, 3], numpy.int32), W)
    with pytest.raises(ValueError, match=r"embed_id: .*got values in \[-2, 1\]"):
        F.embed_id(numpy.array([1, -2], numpy.int32), W, ignore_label=-1)


def test_rejects_non_integer_ids_and_bad_W():
    W = numpy.zeros((3, 2), numpy.float32)
    with pytest.raises(TypeError, match="embed_id: x must be an integer array of ids, got dtype float32"):
        F.embed_id(numpy.zeros(2, numpy.float32), W)
    with pytest.raises(TypeError, match="embed_id: W must be a floating-point array"):
        F.embed_id(numpy.zeros(2, numpy.int32), W.astype(numpy.int32))
    with pytest.raises(ValueError, match="embed_id: W must be 2-dimensional"):
        F.embed_id(numpy.zeros(2, numpy.int32), W.reshape(3, 2, 1))
