import numpy
import pytest

from kusari.rl.explorers import AdditiveOU
from kusari.rl.utils import set_random_seed


def test_follows_the_ou_recurrence():
    mu, theta, sigma = 0.5, 0.15, 0.3
    greedy = numpy.array([1.0, -2.0], numpy.float32)
    explorer = AdditiveOU(mu=mu, theta=theta, sigma=sigma, start_with_mu=True)
    set_random_seed(11)
    actions = [explorer.select_action(t, lambda: greedy) for t in range(30)]
    set_random_seed(11)
    x = numpy.full(2, mu)
    expected = [greedy + x]
    for _ in range(29):
        x = x + theta * (mu - x) + sigma * numpy.random.normal(size=2)
        expected.append(greedy + x)
    assert all(a.dtype == numpy.float32 for a in actions)
    numpy.testing.assert_allclose(actions, expected, rtol=1e-5, atol=1e-5)


def test_reverts_to_the_mean_without_noise():
    mu, theta = -1.0, 0.2
    explorer = AdditiveOU(mu=mu, theta=theta, sigma=0.0, start_with_mu=True)
    zero = numpy.zeros(1, numpy.float32)
    explorer.select_action(0, lambda: zero)
    explorer.ou_state[:] = 9.0
    for k in range(1, 20):
        noise = explorer.select_action(k, lambda: zero)
        assert noise[0] == pytest.approx(mu + (9.0 - mu) * (1 - theta) ** k, rel=1e-5)


def test_first_state_is_a_stationary_draw():
    mu, theta, sigma = 0.3, 0.15, 0.2
    set_random_seed(5)
    first = AdditiveOU(mu=mu, theta=theta, sigma=sigma).select_action(0, lambda: numpy.zeros(3, numpy.float32))
    set_random_seed(5)
    draw = numpy.random.normal(loc=mu, scale=sigma / numpy.sqrt(2 * theta - theta ** 2), size=3)
    numpy.testing.assert_array_equal(first, draw.astype(numpy.float32))


@pytest.mark.parametrize("kwargs,message", [
    (dict(sigma=-1.0), "AdditiveOU: sigma"),
    (dict(theta=0.0), "AdditiveOU: theta must be in \\(0, 2\\) when start_with_mu is False, got 0.0"),
    (dict(theta=-0.1, start_with_mu=True), "AdditiveOU: theta must be >= 0"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        AdditiveOU(**kwargs)


def test_repr():
    assert repr(AdditiveOU()) == "AdditiveOU(mu=0.0, theta=0.15, sigma=0.3)"
