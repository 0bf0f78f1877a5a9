import numpy
import pytest

import kusari.functions as F
from kusari import testing

MASK = numpy.array([True, False, True, True])


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [
        (numpy.array([0, 2, 0]), (3, 3)),             # a repeated row index accumulates
        ((slice(1, 3), 1), (2,)),
        ((Ellipsis, numpy.array([1, 1])), (4, 2)),
        (MASK, (3, 3)),
        ((numpy.array([3, 0]), slice(None)), (3,)),   # b broadcasts to a[slices].shape == (2, 3)
    ],
}))
class TestScatterAdd(testing.FunctionTestCase):
    def generate_inputs(self):
        a = numpy.random.uniform(-1, 1, (4, 3)).astype(self.dtype)
        b = numpy.random.uniform(-1, 1, self.case[1]).astype(self.dtype)
        return a, b

    def forward(self, inputs, device):
        return F.scatter_add(inputs[0], self.case[0], inputs[1]),

    def forward_expected(self, inputs):
        a, b = inputs
        slices = self.case[0]
        if isinstance(slices, numpy.ndarray) and slices.dtype == bool:
            slices = slices.nonzero()
        y = a.copy()
        numpy.add.at(y, slices, b)
        return y,


def test_repeated_indices_accumulate():
    a = numpy.zeros(3, numpy.float32)
    y = F.scatter_add(a, numpy.array([1, 1, 1]), numpy.ones(3, numpy.float32))
    numpy.testing.assert_array_equal(y.array, [0, 3, 0])
    assert a[1] == 0


def test_bad_inputs_rejected():
    a = numpy.zeros((4, 3), numpy.float32)
    with pytest.raises(TypeError, match="scatter_add: a.dtype=float32 and b.dtype=float64 differ"):
        F.scatter_add(a, 0, numpy.ones(3))
    with pytest.raises(ValueError, match=r"scatter_add: cannot add b.shape=\(2,\) into a\[slices\] "
                                         r"with a.shape=\(4, 3\)"):
        F.scatter_add(a, 0, numpy.ones(2, numpy.float32))
    with pytest.raises(IndexError, match="scatter_add: cannot add"):
        F.scatter_add(a, numpy.array([5]), numpy.ones(3, numpy.float32))


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "case": [(numpy.array([0, 2, 0]), (3, 3)), (MASK, (3, 3))],
    "device": ["@cupy:0"],
}))
class TestScatterAddGPU(TestScatterAdd):
    pass


@pytest.mark.parametrize("slices", [[], ([],), (slice(None), [])])
def test_empty_list_indexes_nothing_as_in_numpy(slices):
    x = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    got = F.get_item(x, slices)
    assert got.shape == x[slices].shape and got.dtype == x.dtype
    y = F.scatter_add(x, slices, numpy.ones(x[slices].shape, numpy.float32))
    numpy.testing.assert_array_equal(y.array, x)   # nothing is added
