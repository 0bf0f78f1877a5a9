import numpy
import pytest

from kusari.rl.explorers import AdditiveGaussian
from kusari.rl.utils import set_random_seed


def test_adds_seeded_float32_noise():
    greedy = numpy.array([0.5, -1.0, 2.0], numpy.float32)
    set_random_seed(3)
    action = AdditiveGaussian(scale=0.2).select_action(0, lambda: greedy)
    set_random_seed(3)
    noise = numpy.random.normal(scale=0.2, size=3).astype(numpy.float32)
    assert action.dtype == numpy.float32
    numpy.testing.assert_array_equal(action, greedy + noise)


@pytest.mark.parametrize("low,high", [(-1.0, 1.0), (numpy.array([-1.0, -0.5]), numpy.array([1.0, 0.5]))])
def test_clips_to_bounds_keeping_float32(low, high):
    set_random_seed(0)
    explorer = AdditiveGaussian(scale=10.0, low=low, high=high)
    actions = numpy.array([explorer.select_action(t, lambda: numpy.zeros(2, numpy.float32)) for t in range(200)])
    assert actions.dtype == numpy.float32
    assert (actions >= numpy.float32(low)).all() and (actions <= numpy.float32(high)).all()
    assert (actions == numpy.float32(low)).any() and (actions == numpy.float32(high)).any()


def test_one_sided_clip():
    set_random_seed(0)
    explorer = AdditiveGaussian(scale=10.0, low=0.0)
    actions = numpy.array([explorer.select_action(t, lambda: numpy.zeros(1, numpy.float32)) for t in range(200)])
    assert actions.min() == 0.0 and actions.max() > 5.0


@pytest.mark.parametrize("kwargs,message", [
    (dict(scale=-0.1), "AdditiveGaussian: scale"),
    (dict(scale=0.1, low=1.0, high=-1.0), "AdditiveGaussian: low must not exceed high, got low=1.0, high=-1.0"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        AdditiveGaussian(**kwargs)


def test_repr():
    assert repr(AdditiveGaussian(0.1, -1, 1)) == "AdditiveGaussian(scale=0.1, low=-1, high=1)"
