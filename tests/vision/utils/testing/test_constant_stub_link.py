"""kusari.vision.utils.ConstantStubLink: fixed outputs, whatever the input, on the link's device."""
import numpy
import pytest

import kusari
from kusari.vision import utils


def test_returns_its_variable_or_tuple():
    a, b = numpy.arange(3, dtype=numpy.float32), numpy.ones((2, 2))
    one = utils.ConstantStubLink(a)
    out = one(numpy.zeros(5), "anything")
    assert isinstance(out, kusari.Variable) and out.array is a
    pair = utils.ConstantStubLink((a, b))
    outs = pair()
    assert isinstance(outs, tuple) and [o.array for o in outs] == [a, b]
    assert list(pair.params()) == []


def test_outputs_must_be_arrays():
    with pytest.raises(ValueError, match="ConstantStubLink: outputs must be a numpy.ndarray or a tuple of them; "
                                         "item 1 is list"):
        utils.ConstantStubLink((numpy.zeros(1), [1, 2]))


def test_to_cpu_keeps_the_outputs():
    link = utils.ConstantStubLink(numpy.zeros(2))
    assert link.to_cpu() is link and isinstance(link().array, numpy.ndarray)


@pytest.mark.gpu
def test_to_gpu_moves_the_outputs():
    import cupy
    link = utils.ConstantStubLink((numpy.zeros(2), numpy.ones(3)))
    link.to_gpu()
    assert all(isinstance(o.array, cupy.ndarray) for o in link())
