import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shape": [(3, 4), ()],
    "ratio": [0.5, 0.2],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestDropout(testing.FunctionTestCase):
    def setup(self):
        keep = numpy.random.uniform(0, 1, self.shape) >= self.ratio
        self.mask = numpy.asarray(keep / (1 - self.ratio))

    def generate_inputs(self):
        return numpy.asarray(numpy.random.uniform(-1, 1, self.shape)).astype(self.dtype),

    def forward(self, inputs, device):
        x = inputs[0]
        return F.dropout(x, self.ratio, mask=device.send(self.mask.astype(x.dtype))),

    def forward_expected(self, inputs):
        return (inputs[0].astype(numpy.float64) * self.mask).astype(self.dtype),


@pytest.mark.parametrize("dtype", [numpy.float32, numpy.float64])
def test_keeps_about_one_minus_ratio_and_rescales(dtype):
    numpy.random.seed(0)
    x = numpy.ones((500, 200), dtype)
    y, mask = F.dropout(x, 0.3, return_mask=True)
    assert y.dtype == dtype and mask.dtype == dtype
    kept = y.array != 0
    # 100000 Bernoulli(0.7) draws: the standard deviation of the kept fraction is 0.0014
    assert abs(kept.mean() - 0.7) < 0.01
    numpy.testing.assert_allclose(y.array[kept], 1 / 0.7, rtol=1e-6)
    numpy.testing.assert_array_equal(y.array, x * mask)


def test_given_mask_reproduces_output():
    numpy.random.seed(0)
    x = numpy.random.uniform(-1, 1, (4, 5)).astype(numpy.float32)
    y, mask = F.dropout(x, return_mask=True)
    numpy.testing.assert_array_equal(F.dropout(x, mask=mask).array, y.array)


def test_gradient_is_masked_and_scaled():
    x = kusari.Variable(numpy.ones(4, numpy.float32))
    mask = numpy.array([2.0, 0.0, 2.0, 0.0], numpy.float32)
    y = F.dropout(x, 0.5, mask=mask)
    y.grad = numpy.full(4, 3.0, numpy.float32)
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [6.0, 0.0, 6.0, 0.0])


def test_identity_outside_training():
    x = numpy.random.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    with kusari.using_config("train", False):
        y, mask = F.dropout(x, 0.9, return_mask=True)
    assert mask is None
    numpy.testing.assert_array_equal(y.array, x)


@pytest.mark.parametrize("ratio", [-0.1, 1.0])
def test_bad_ratio_rejected(ratio):
    with pytest.raises(ValueError, match=r"dropout: ratio must be in \[0, 1\)"):
        F.dropout(numpy.ones(3, numpy.float32), ratio)


def test_mask_dtype_mismatch_rejected():
    with pytest.raises(TypeError, match="dropout: dtypes must match"):
        F.dropout(numpy.ones(3, numpy.float32), mask=numpy.ones(3, numpy.float64))


def test_mask_shape_mismatch_rejected():
    with pytest.raises(ValueError, match=r"dropout: shapes must match \(x.shape=\(3,\), mask.shape=\(2,\)\)"):
        F.dropout(numpy.ones(3, numpy.float32), mask=numpy.ones(2, numpy.float32))


def test_integer_input_rejected():
    with pytest.raises(TypeError, match="dropout: x must be a floating-point array"):
        F.dropout(numpy.arange(3))
