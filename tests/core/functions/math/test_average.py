import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product([
    [{"axis": None, "weights": None}, {"axis": 1, "weights": None}, {"axis": (0, 2), "weights": None},
     {"axis": None, "weights": "full"}, {"axis": 1, "weights": "full"}, {"axis": (0, 2), "weights": "full"},
     {"axis": 1, "weights": "axis"}, {"axis": -1, "weights": "axis"}],
    testing.product({"keepdims": [False, True], "dtype": [numpy.float32, numpy.float64]}),
]))
class TestAverage(testing.FunctionTestCase):
    def generate_inputs(self):
        x = numpy.random.uniform(-1, 1, (3, 2, 4)).astype(self.dtype)
        if self.weights is None:
            return x,
        shape = x.shape if self.weights == "full" else (x.shape[self.axis],)
        return x, numpy.random.uniform(0.5, 2, shape).astype(self.dtype)

    def forward(self, inputs, device):
        w = inputs[1] if len(inputs) == 2 else None
        return F.average(inputs[0], axis=self.axis, weights=w, keepdims=self.keepdims),

    def forward_expected(self, inputs):
        x = inputs[0].astype(numpy.float64)
        w = inputs[1].astype(numpy.float64) if len(inputs) == 2 else None
        if w is not None and w.ndim == 1:
            shape = [1] * x.ndim
            shape[self.axis] = len(w)
            w = numpy.broadcast_to(w.reshape(shape), x.shape)
        y = numpy.average(x, axis=self.axis, weights=w)
        if self.keepdims:
            axes = range(x.ndim) if self.axis is None else numpy.atleast_1d(self.axis)
            y = numpy.expand_dims(y, tuple(a % x.ndim for a in axes))
        return numpy.asarray(y).astype(self.dtype),


def test_average_returned():
    x = numpy.array([[1.0, 2.0], [3.0, 5.0]], numpy.float32)
    w = numpy.array([1.0, 3.0], numpy.float32)
    avg, total = F.average(x, axis=1, weights=w, returned=True)
    ref_avg, ref_total = numpy.average(x, axis=1, weights=w, returned=True)
    numpy.testing.assert_allclose(avg.array, ref_avg, rtol=1e-6)
    numpy.testing.assert_allclose(total.array, ref_total)
    avg, count = F.average(x, axis=0, returned=True)
    numpy.testing.assert_allclose(count.array, [2.0, 2.0])
    assert count.dtype == numpy.float32


def test_mean_with_weights_delegates_to_average():
    x = numpy.array([1.0, 2.0, 4.0])
    w = numpy.array([1.0, 1.0, 2.0])
    numpy.testing.assert_allclose(F.mean(x, weights=w, axis=0).array, 11.0 / 4.0)


def test_average_errors():
    x = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"average: weights.shape=\(2,\) must equal x.shape=\(2, 3\)"):
        F.average(x, axis=1, weights=numpy.ones(2, numpy.float32))
    with pytest.raises(ValueError, match="average: weights.shape"):
        F.average(x, axis=(0, 1), weights=numpy.ones(3, numpy.float32))
    with pytest.raises(TypeError, match="average: dtypes must match"):
        F.average(x, weights=numpy.ones((2, 3), numpy.float64))
    with pytest.raises(ValueError, match="average: axis 2 is out of bounds"):
        F.average(x, axis=2)
