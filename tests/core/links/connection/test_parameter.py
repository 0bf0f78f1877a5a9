import numpy

import kusari
import kusari.links as L


def test_parameter_link():
    a = numpy.arange(3, dtype=numpy.float32)
    link = L.Parameter(a)
    w = link()
    assert isinstance(w, kusari.Parameter) and w is link.W
    numpy.testing.assert_array_equal(w.array, a)
    assert [n for n, _ in link.namedparams()] == ["/W"]
    kusari.functions.sum(w * w).backward()
    numpy.testing.assert_allclose(link.W.grad, 2 * a)
