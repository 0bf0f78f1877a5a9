"""reshape, transpose, broadcast_to, sum_to and get_item."""
import numpy
import pytest

import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]


@testing.parameterize(*testing.product({"dtype": DTYPES, "shape": [(6,), (2, -1), (3, 1, 2)]}))
class TestReshape(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.reshape(inputs[0], self.shape),

    def forward_expected(self, inputs):
        return inputs[0].reshape(self.shape),


@testing.parameterize(*testing.product({"dtype": DTYPES, "axes": [None, (1, 0, 2), (2, 0, 1)]}))
class TestTranspose(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (2, 3, 4)).astype(self.dtype),

    def forward(self, inputs, device):
        return F.transpose(inputs[0], self.axes),

    def forward_expected(self, inputs):
        return inputs[0].transpose(self.axes),


@testing.parameterize(*testing.product({"dtype": DTYPES,
                                         "shapes": [((3, 1), (2, 3, 4)), ((4,), (3, 4)), ((1,), (2,))]}))
class TestBroadcastTo(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.broadcast_to(inputs[0], self.shapes[1]),

    def forward_expected(self, inputs):
        return numpy.broadcast_to(inputs[0], self.shapes[1]),


@testing.parameterize(*testing.product({"dtype": DTYPES,
                                         "shapes": [((2, 3, 4), (3, 1)), ((3, 4), (4,)), ((2, 5), (1, 5))]}))
class TestSumTo(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.shapes[0]).astype(self.dtype),

    def forward(self, inputs, device):
        return F.sum_to(inputs[0], self.shapes[1]),

    def forward_expected(self, inputs):
        x, (src, dst) = inputs[0], self.shapes
        y = x.sum(axis=tuple(range(len(src) - len(dst))))
        return y.sum(axis=tuple(i for i, s in enumerate(dst) if s == 1), keepdims=True).reshape(dst),


@testing.parameterize(*testing.product({
    "dtype": DTYPES,
    "index": [1, (slice(None), 0), (Ellipsis, None, 1), ([0, 2, 0],), (slice(None), [1, 1, 0]),
              "mask", (numpy.array([0, 1]), numpy.array([2, 0]))],
}))
class TestGetItem(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype),

    def _index(self, x):
        return (x > 0) if isinstance(self.index, str) else self.index

    def forward(self, inputs, device):
        x = inputs[0]
        return F.get_item(x, self._index(x.array)),

    def forward_expected(self, inputs):
        return numpy.asarray(inputs[0][self._index(inputs[0])]),


def test_reshape_error_names_shapes():
    with pytest.raises(ValueError, match=r"reshape: cannot reshape x of shape \(2, 3\)"):
        F.reshape(numpy.ones((2, 3), numpy.float32), (4,))
