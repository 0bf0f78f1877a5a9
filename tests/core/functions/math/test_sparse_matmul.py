import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing
from kusari.utils.sparse import CooMatrix, to_coo

M, K, N, B = 3, 4, 2, 2


def _shape(rows, cols, trans):
    return (cols, rows) if trans else (rows, cols)


def _pattern(sp_shape, lead):
    """Six entry slots per matrix: one position repeated, one padding slot (-1)."""
    rows = numpy.random.randint(0, sp_shape[0], lead + (6,)).astype(numpy.int32)
    cols = numpy.random.randint(0, sp_shape[1], lead + (6,)).astype(numpy.int32)
    rows[..., 1], cols[..., 1] = rows[..., 0], cols[..., 0]
    rows[..., -1] = cols[..., -1] = -1
    return rows, cols


def _to_dense(data, rows, cols, sp_shape):
    dense = numpy.zeros(data.shape[:-1] + sp_shape)
    for idx in numpy.ndindex(data.shape):
        if rows[idx] >= 0:
            dense[idx[:-1] + (rows[idx], cols[idx])] += data[idx]
    return dense


@testing.parameterize(*testing.product({
    "sparse_side": ["a", "b"],
    "batched": [False, True],
    "transa": [False, True],
    "transb": [False, True],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestSparseMatmul(testing.FunctionTestCase):
    def setup(self):
        # op(a) is (M, K) and op(b) is (K, N); the sparse operand is stored as sp_shape.
        self.a_shape = _shape(M, K, self.transa)
        self.b_shape = _shape(K, N, self.transb)
        self.sp_shape = self.a_shape if self.sparse_side == "a" else self.b_shape
        self.lead = (B,) if self.batched else ()
        self.rows, self.cols = _pattern(self.sp_shape, self.lead)

    def generate_inputs(self):
        data = numpy.random.uniform(-1, 1, self.rows.shape)
        data[self.rows < 0] = 0
        dense_shape = self.b_shape if self.sparse_side == "a" else self.a_shape
        dense = numpy.random.uniform(-1, 1, self.lead + dense_shape)
        return data.astype(self.dtype), dense.astype(self.dtype)

    def forward(self, inputs, device):
        data, dense = inputs
        sp = CooMatrix(data, self.rows, self.cols, self.sp_shape)
        pair = (sp, dense) if self.sparse_side == "a" else (dense, sp)
        return F.sparse_matmul(*pair, transa=self.transa, transb=self.transb),

    def forward_expected(self, inputs):
        data, dense = (x.astype(numpy.float64) for x in inputs)
        sp = _to_dense(data, self.rows, self.cols, self.sp_shape)
        a, b = (sp, dense) if self.sparse_side == "a" else (dense, sp)
        a = a.swapaxes(-1, -2) if self.transa else a
        b = b.swapaxes(-1, -2) if self.transb else b
        return numpy.matmul(a, b).astype(self.dtype),


def test_sparse_matmul_matches_dense_and_grads_only_on_pattern():
    x = numpy.array([[0, 2, 0], [-1, 0, 3]], numpy.float32)
    sp = to_coo(x, requires_grad=True)
    d = kusari.Variable(numpy.random.rand(3, 4).astype(numpy.float32))
    y = F.sparse_matmul(sp, d)
    numpy.testing.assert_allclose(y.array, x @ d.array, rtol=1e-6)
    F.sum(y).backward()
    # d sum(A D) / d A[r, c] = sum_n D[c, n], read at the pattern's entries
    expected = d.array.sum(axis=1)[sp.col]
    numpy.testing.assert_allclose(sp.data.grad, expected, rtol=1e-6)
    numpy.testing.assert_allclose(d.grad, numpy.broadcast_to(x.sum(axis=0)[:, None], (3, 4)), rtol=1e-6)


def test_sparse_matmul_errors():
    sp = to_coo(numpy.eye(3, dtype=numpy.float32))
    with pytest.raises(TypeError, match="sparse_matmul: exactly one of a and b must be a CooMatrix"):
        F.sparse_matmul(sp, sp)
    with pytest.raises(TypeError, match="sparse_matmul: exactly one of a and b must be a CooMatrix"):
        F.sparse_matmul(numpy.eye(3, dtype=numpy.float32), numpy.eye(3, dtype=numpy.float32))
    with pytest.raises(ValueError, match=r"sparse_matmul: contracted sizes differ: 3 for the sparse matrix"):
        F.sparse_matmul(sp, numpy.ones((4, 2), numpy.float32))
    with pytest.raises(ValueError, match="sparse_matmul: the dense operand must be 2-dimensional"):
        F.sparse_matmul(sp, numpy.ones((2, 3, 2), numpy.float32))
    batch = to_coo(numpy.ones((2, 3, 3), numpy.float32))
    with pytest.raises(ValueError, match=r"sparse_matmul: batch sizes differ \(sparse 2, dense 3"):
        F.sparse_matmul(batch, numpy.ones((3, 3, 2), numpy.float32))
