import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]


@testing.parameterize(*testing.product({
    "op": ["add", "sub", "mul", "div", "pow"],
    "shapes": [((3, 2), (3, 2)), ((3, 2), (2,)), ((1, 2), (3, 1))],
    "dtype": DTYPES,
}))
class TestBinary(testing.FunctionTestCase):
    def generate_inputs(self):
        a = numpy.random.uniform(0.5, 2, self.shapes[0]).astype(self.dtype)
        b = numpy.random.uniform(0.5, 2, self.shapes[1]).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        a, b = inputs
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b, "pow": a ** b}[self.op],

    def forward_expected(self, inputs):
        a, b = inputs
        return {"add": a + b, "sub": a - b, "mul": a * b, "div": a / b, "pow": a ** b}[self.op],


@testing.parameterize(*testing.product({
    "op": ["radd", "rsub", "rmul", "rdiv", "rpow", "addc", "subc", "mulc", "divc", "powc",
           "neg", "abs"],
    "dtype": DTYPES,
}))
class TestConstant(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(0.5, 2, (3, 4)).astype(self.dtype),

    def _apply(self, x):
        return {"radd": lambda: 2.5 + x, "rsub": lambda: 2.5 - x, "rmul": lambda: 2.5 * x,
                "rdiv": lambda: 2.5 / x, "rpow": lambda: 2.5 ** x, "addc": lambda: x + 2.5,
                "subc": lambda: x - 2.5, "mulc": lambda: x * 2.5, "divc": lambda: x / 2.5,
                "powc": lambda: x ** 2.5, "neg": lambda: -x, "abs": lambda: abs(x)}[self.op]()

    def forward(self, inputs, device):
        return self._apply(inputs[0]),

    def forward_expected(self, inputs):
        return self._apply(inputs[0]),


def test_numpy_scalar_does_not_upcast():
    x = kusari.Variable(numpy.ones(3, numpy.float32))
    for y in (x + numpy.float64(1), x * numpy.float64(2), numpy.float64(2) * x,
              x / numpy.float64(3), x - numpy.float64(1), x ** numpy.float64(2)):
        assert y.dtype == numpy.float32


def test_mixed_dtypes_rejected():
    x = kusari.Variable(numpy.ones(3, numpy.float32))
    y = kusari.Variable(numpy.ones(3, numpy.float64))
    with pytest.raises(TypeError, match="add: operand dtypes differ"):
        x + y


def test_non_broadcastable_shapes_rejected():
    x = kusari.Variable(numpy.ones((3, 2), numpy.float32))
    y = kusari.Variable(numpy.ones((4,), numpy.float32))
    with pytest.raises(ValueError, match=r"mul: shapes \(3, 2\) and \(4,\)"):
        x * y


def test_comparisons_return_boolean_variables():
    x = kusari.Variable(numpy.array([1.0, 2.0, 3.0], numpy.float32))
    assert ((x > 1.5).array == numpy.array([False, True, True])).all()
    assert not (x == x).requires_grad


def test_add_many():
    xs = [numpy.full(2, i, numpy.float32) for i in range(4)]
    numpy.testing.assert_array_equal(F.add(*xs).array, numpy.full(2, 6, numpy.float32))
