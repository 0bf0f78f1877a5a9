import numpy
import pytest

import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "shapes": [((4, 3), (4, 2)), ((3, 2, 2), (3, 3))],
    "linear_terms": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestBilinear(testing.FunctionTestCase):
    def generate_inputs(self):
        s1, s2 = self.shapes
        j, k, out = int(numpy.prod(s1[1:])), int(numpy.prod(s2[1:])), 2
        u = lambda *shape: numpy.random.uniform(-1, 1, shape).astype(self.dtype)  # noqa: E731
        inputs = (u(*s1), u(*s2), u(j, k, out))
        if self.linear_terms:
            inputs += (u(j, out), u(k, out), u(out))
        return inputs

    def forward(self, inputs, device):
        return F.bilinear(*inputs),

    def forward_expected(self, inputs):
        e1 = inputs[0].reshape(len(inputs[0]), -1).astype(numpy.float64)
        e2 = inputs[1].reshape(len(inputs[1]), -1).astype(numpy.float64)
        W = inputs[2].astype(numpy.float64)
        y = numpy.einsum("ij,ik,jkl->il", e1, e2, W)
        if self.linear_terms:
            V1, V2, b = inputs[3:]
            y += e1 @ V1 + e2 @ V2 + b
        return y.astype(self.dtype),


def _arrays():
    u = lambda *shape: numpy.ones(shape, numpy.float32)  # noqa: E731
    return u(4, 3), u(4, 2), u(3, 2, 5), u(3, 5), u(2, 5), u(5)


def test_linear_terms_all_or_nothing():
    e1, e2, W, V1, V2, b = _arrays()
    with pytest.raises(ValueError, match="bilinear: V1, V2 and b must be all given or all None, got "
                                         "V1=given, V2=None, b=None"):
        F.bilinear(e1, e2, W, V1)


def test_shape_errors():
    e1, e2, W, V1, V2, b = _arrays()
    with pytest.raises(ValueError, match=r"bilinear: W.shape\[:2\]=\(3, 2\) does not match the feature "
                                         r"sizes \(3, 3\)"):
        F.bilinear(e1, e1, W)
    with pytest.raises(ValueError, match=r"bilinear: e1 and e2 must be \(batch, ...\) arrays with the "
                                         r"same batch size"):
        F.bilinear(e1, e2[:3], W)
    with pytest.raises(ValueError, match=r"bilinear: V2 must have shape \(2, 5\), got V2.shape=\(3, 5\)"):
        F.bilinear(e1, e2, W, V1, V1, b)
    with pytest.raises(TypeError, match="bilinear: dtypes must match"):
        F.bilinear(e1, e2.astype(numpy.float64), W)
