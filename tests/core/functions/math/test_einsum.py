import numpy
import pytest

import kusari.functions as F
from kusari import testing

CASES = [
    ("ij,jk->ik", [(2, 3), (3, 4)]),
    ("ij,jk", [(2, 3), (3, 4)]),               # implicit output
    ("ii->i", [(3, 3)]),                       # diagonal
    ("ii", [(3, 3)]),                          # trace
    ("iji->ij", [(2, 3, 2)]),                  # diagonal over non-adjacent axes
    ("ij->", [(2, 3)]),                        # full sum
    ("i,j->ij", [(2,), (3,)]),                 # outer product
    ("ij,ij->i", [(2, 3), (2, 3)]),
    ("ij,k->ijk", [(2, 3), (2,)]),
    ("bij,bjk->bik", [(2, 2, 3), (2, 3, 4)]),
    ("...ij,...jk->...ik", [(2, 2, 3), (3, 4)]),  # ellipsis with different lengths
    ("...ij,jk", [(5, 2, 3), (3, 4)]),         # implicit with ellipsis
    ("ij,jk->ik", [(2, 1), (3, 4)]),          # size-1 axis broadcast against 3
    ("ij,jk,kl->il", [(2, 3), (3, 2), (2, 2)]),
    ("i->i", [(3,)]),
    ("ij->ji", [(2, 3)]),
    ("ik,jk->", [(2, 3), (4, 3)]),           # 'k' summed, 'i' and 'j' each only in one operand
    ("ij->j", [(2, 3)]),
]


@testing.parameterize(*testing.product({
    "case": CASES,
    "dtype": [numpy.float32, numpy.float64],
}))
class TestEinsum(testing.FunctionTestCase):
    def generate_inputs(self):
        return tuple(numpy.random.uniform(-1, 1, s).astype(self.dtype) for s in self.case[1])

    def forward(self, inputs, device):
        return F.einsum(self.case[0], *inputs),

    def forward_expected(self, inputs):
        y = numpy.einsum(self.case[0], *(x.astype(numpy.float64) for x in inputs))
        return numpy.asarray(y).astype(self.dtype),


def test_einsum_errors():
    a = numpy.ones((2, 3), numpy.float32)
    with pytest.raises(ValueError, match="einsum: subscript 'j' has size 3 in one operand and 4 in"):
        F.einsum("ij,jk->ik", a, numpy.ones((4, 2), numpy.float32))
    with pytest.raises(ValueError, match=r"einsum: 'ij,jk->ik' names 2 operand\(s\) but 1 were given"):
        F.einsum("ij,jk->ik", a)
    with pytest.raises(ValueError, match=r"einsum: subscripts 'ijk' do not fit operand 0 of shape \(2, 3\)"):
        F.einsum("ijk->i", a)
    with pytest.raises(ValueError, match="einsum: output subscript 'k' in 'ij->k' is repeated or"):
        F.einsum("ij->k", a)
    with pytest.raises(ValueError, match="einsum: invalid subscripts 'i1'"):
        F.einsum("i1->i", a)
    with pytest.raises(ValueError, match="no '...' in the output"):
        F.einsum("...j->j", numpy.ones((2, 3, 4), numpy.float32)[0])
    with pytest.raises(TypeError, match="einsum: the first operand must be the subscripts string"):
        F.einsum(a, a)
    with pytest.raises(TypeError, match="einsum: dtypes must match"):
        F.einsum("ij,ij->", a, a.astype(numpy.float64))
    with pytest.raises(TypeError, match="einsum: operand 1 must be a floating-point array"):
        F.einsum("ij,ij->", a, numpy.ones((2, 3), numpy.int32))


def test_einsum_takes_numpy_sublist_form():
    a = numpy.random.rand(2, 3).astype(numpy.float32)
    b = numpy.random.rand(3, 4).astype(numpy.float32)
    numpy.testing.assert_allclose(F.einsum(a, [0, 1], b, [1, 2], [0, 2]).array, a @ b, rtol=1e-5)
    numpy.testing.assert_allclose(F.einsum(a, [Ellipsis, 1], b, [1, 2]).array,
                                  numpy.einsum(a, [Ellipsis, 1], b, [1, 2]), rtol=1e-5)
    with pytest.raises(ValueError, match="ints in \\[0, 52\\)"):
        F.einsum(a, [0, 99])
