import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing

DTYPES = [numpy.float32, numpy.float64]


def _op(x, trans):
    return x.swapaxes(-1, -2) if trans and x.ndim > 1 else x


@testing.parameterize(*testing.product([
    [{"shapes": ((3, 4), (4, 2))}, {"shapes": ((2, 3, 4), (4, 5))}, {"shapes": ((2, 1, 3, 4), (5, 4, 2))},
     {"shapes": ((4,), (4,))}, {"shapes": ((4,), (2, 4, 3))}, {"shapes": ((2, 3, 4), (4,))}],
    testing.product({"transa": [False, True], "transb": [False, True], "dtype": DTYPES}),
]))
class TestMatmul(testing.FunctionTestCase):
    def generate_inputs(self):
        a_shape, b_shape = self.shapes
        if self.transa and len(a_shape) > 1:
            a_shape = a_shape[:-2] + (a_shape[-1], a_shape[-2])
        if self.transb and len(b_shape) > 1:
            b_shape = b_shape[:-2] + (b_shape[-1], b_shape[-2])
        return (numpy.random.uniform(-1, 1, a_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, b_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.matmul(*inputs, transa=self.transa, transb=self.transb),

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        return numpy.asarray(numpy.matmul(_op(a, self.transa), _op(b, self.transb))).astype(self.dtype),


def _batch_cases():
    cases = [{"shapes": ((3, 2, 4), (3, 4, 5)), "transa": ta, "transb": tb}
             for ta in (False, True) for tb in (False, True)]
    # 2-D operands are batches of column vectors: (B, N) acts as (B, N, 1).
    cases += [{"shapes": ((3, 4), (3, 4)), "transa": True, "transb": False},
              {"shapes": ((3, 4), (3, 5)), "transa": False, "transb": True},
              {"shapes": ((3, 2, 4), (3, 4)), "transa": False, "transb": False}]
    return cases


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@testing.parameterize(*testing.product([_batch_cases(), [{"dtype": d} for d in DTYPES]]))
class TestBatchMatmul(testing.FunctionTestCase):
    def generate_inputs(self):
        a_shape, b_shape = self.shapes
        if self.transa and len(a_shape) == 3:
            a_shape = (a_shape[0], a_shape[2], a_shape[1])
        if self.transb and len(b_shape) == 3:
            b_shape = (b_shape[0], b_shape[2], b_shape[1])
        return (numpy.random.uniform(-1, 1, a_shape).astype(self.dtype),
                numpy.random.uniform(-1, 1, b_shape).astype(self.dtype))

    def forward(self, inputs, device):
        return F.batch_matmul(*inputs, transa=self.transa, transb=self.transb),

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        a = a[..., None] if a.ndim == 2 else a
        b = b[..., None] if b.ndim == 2 else b
        a = a.transpose(0, 2, 1) if self.transa else a
        b = b.transpose(0, 2, 1) if self.transb else b
        return numpy.einsum("bij,bjk->bik", a, b).astype(self.dtype),


def test_matmul_operator():
    a = kusari.Variable(numpy.random.rand(2, 3).astype(numpy.float32))
    b = numpy.random.rand(3, 4).astype(numpy.float32)
    numpy.testing.assert_allclose((a @ b).array, a.array @ b, rtol=1e-6)
    numpy.testing.assert_allclose((b.T @ a.T).array, b.T @ a.array.T, rtol=1e-6)


def test_matmul_contracted_mismatch():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"matmul: a.shape\[-1\]=3 does not match b.shape\[-2\]=4"):
        F.matmul(a, numpy.ones((4, 2), numpy.float32))
    with pytest.raises(ValueError, match=r"matmul: a.shape\[-2\]=2 does not match b.shape\[-2\]=3"):
        F.matmul(a, numpy.ones((3, 2), numpy.float32), transa=True)


def test_matmul_batch_mismatch():
    with pytest.raises(ValueError, match=r"matmul: batch dimensions \(2,\) of a and \(3,\) of b"):
        F.matmul(numpy.ones((2, 2, 3), numpy.float32), numpy.ones((3, 3, 2), numpy.float32))


def test_matmul_scalar_rejected():
    with pytest.raises(ValueError, match="matmul: a must have at least one dimension"):
        F.matmul(numpy.ones((), numpy.float32), numpy.ones((3,), numpy.float32))


def test_matmul_dtype_checks():
    with pytest.raises(TypeError, match="matmul: a must be a floating-point array"):
        F.matmul(numpy.ones((2, 3), numpy.int32), numpy.ones((3, 2), numpy.float32))


def test_batch_matmul_warns_and_checks():
    a = numpy.ones((2, 3, 4), numpy.float32)
    with pytest.warns(DeprecationWarning, match="batch_matmul is deprecated"):
        assert F.batch_matmul(a, numpy.ones((2, 4, 5), numpy.float32)).shape == (2, 3, 5)
    with pytest.warns(DeprecationWarning), \
            pytest.raises(ValueError, match="batch_matmul: batch sizes differ"):
        F.batch_matmul(a, numpy.ones((3, 4, 5), numpy.float32))
    with pytest.warns(DeprecationWarning), \
            pytest.raises(ValueError, match="batch_matmul: a must be 2- or 3-dim"):
        F.batch_matmul(numpy.ones(3, numpy.float32), a)
    with pytest.warns(DeprecationWarning), \
            pytest.raises(ValueError, match="batch_matmul: the matrices of a"):
        F.batch_matmul(a, numpy.ones((2, 5, 4), numpy.float32))
