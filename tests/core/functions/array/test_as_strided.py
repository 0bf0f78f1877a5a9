import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


@testing.parameterize(*testing.product({
    "dtype": [numpy.float32, numpy.float64],
    "case": [
        ((4,), (3, 2), (1, 1), 0),          # overlapping sliding windows
        ((3, 4), (2, 3, 4), (0, 4, 1), 0),  # a broadcast (stride 0)
        ((8,), (3, 3), (-1, 2), 3),         # a negative stride
        ((2, 3), (3,), (2,), None),         # every other element
    ],
}))
class TestAsStrided(testing.FunctionTestCase):
    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, self.case[0]).astype(self.dtype),

    def forward(self, inputs, device):
        _, shape, strides, offset = self.case
        return F.as_strided(inputs[0], shape, strides, offset),

    def forward_expected(self, inputs):
        _, shape, strides, offset = self.case
        flat = numpy.ascontiguousarray(inputs[0]).ravel()
        start = flat[offset or 0:]
        view = numpy.lib.stride_tricks.as_strided(
            start, shape, tuple(s * flat.itemsize for s in strides))
        return view.copy(),


def test_overlapping_positions_accumulate_gradient():
    x = kusari.Variable(numpy.arange(4, dtype=numpy.float32))
    y = F.as_strided(x, (3, 2), (1, 1), 0)
    y.grad = numpy.ones((3, 2), numpy.float32)
    y.backward()
    # elements 1 and 2 appear in two windows each, 0 and 3 in one
    numpy.testing.assert_array_equal(x.grad, [1, 2, 2, 1])


def test_out_of_bounds_rejected():
    with pytest.raises(ValueError, match=r"as_strided: shape=\(3, 3\), strides=\(-1, 2\), "
                                         r"storage_offset=1 reach elements -1\.\.5"):
        F.as_strided(numpy.arange(8.0), (3, 3), (-1, 2), 1)


def test_shape_and_strides_length_mismatch_rejected():
    with pytest.raises(ValueError, match=r"as_strided: shape=\(3, 2\) and strides=\(1,\) differ"):
        F.as_strided(numpy.arange(8.0), (3, 2), (1,))


def test_integer_arrays_are_accepted():
    y = F.as_strided(numpy.arange(6), (2, 2), (3, 1), 1)
    numpy.testing.assert_array_equal(y.array, [[1, 2], [4, 5]])


@pytest.mark.gpu
@testing.parameterize(*testing.product({
    "dtype": [numpy.float32], "case": [((4,), (3, 2), (1, 1), 0), ((8,), (3, 3), (-1, 2), 3)],
    "device": ["@cupy:0"],
}))
class TestAsStridedGPU(TestAsStrided):
    pass
