import numpy
import pytest

from kusari.iterators import OrderSampler, ShuffleOrderSampler


def test_shuffle_draws_permutations_from_its_generator():
    sampler = ShuffleOrderSampler(numpy.random.RandomState(3))
    reference = numpy.random.RandomState(3)
    for _ in range(3):
        numpy.testing.assert_array_equal(sampler(numpy.arange(7), 0), reference.permutation(7))


@pytest.mark.parametrize("make", [lambda: numpy.random.RandomState(5), lambda: numpy.random.default_rng(5)])
def test_serialize_restores_the_generator(make, snapshot):
    save, load = snapshot
    sampler = ShuffleOrderSampler(make())
    sampler(numpy.arange(10), 0)
    path = save(sampler)
    expected = [sampler(numpy.arange(10), 0) for _ in range(3)]
    other = ShuffleOrderSampler(make())
    load(other, path)
    for e in expected:
        numpy.testing.assert_array_equal(other(numpy.arange(10), 0), e)


def test_default_generator_is_numpys_global_one():
    numpy.random.seed(11)
    expected = numpy.random.RandomState(11).permutation(5)
    numpy.testing.assert_array_equal(ShuffleOrderSampler()(numpy.arange(5), 0), expected)


def test_bad_random_state():
    with pytest.raises(TypeError, match="random_state must be a numpy.random.RandomState or Generator, got int"):
        ShuffleOrderSampler(3)


def test_base_is_abstract():
    with pytest.raises(NotImplementedError, match=r"OrderSampler must implement __call__"):
        OrderSampler()(numpy.arange(3), 0)
