import numpy
import pytest

from kusari.rl.utils import batch_states


def test_stacks_phi_of_each_state_keeping_dtype():
    states = [numpy.full((2, 3), i, numpy.uint8) for i in range(4)]
    batch = batch_states(states, None, lambda s: s[:1])
    assert batch.dtype == numpy.uint8 and batch.shape == (4, 1, 3)
    numpy.testing.assert_array_equal(batch[:, 0, 0], [0, 1, 2, 3])


def test_tuple_features_and_device():
    states = [(numpy.float32(i) * numpy.ones(2, numpy.float32), numpy.int64(i)) for i in range(3)]
    image, index = batch_states(states, "@numpy", lambda s: s)
    assert image.dtype == numpy.float32 and image.shape == (3, 2)
    numpy.testing.assert_array_equal(index, [0, 1, 2])


def test_empty():
    with pytest.raises(ValueError, match="batch_states"):
        batch_states([], None, lambda s: s)
