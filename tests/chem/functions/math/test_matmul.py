import numpy

from kusari.chem.functions.math.matmul import matmul


def test_transposed_operands():
    a = numpy.arange(6, dtype=numpy.float32).reshape(3, 2)
    b = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    numpy.testing.assert_allclose(matmul(a, b, transa=True, transb=True).array, a.T @ b.T)
