"""DeterministicHead: a point mass whose draws are its input."""
import kusari
import numpy as np
import pytest
from kusari.rl.policies import DeterministicHead


@pytest.fixture
def loc():
    return np.random.RandomState(0).randn(3, 2).astype(np.float32)


def test_draws_mode_and_mean_are_the_input(loc):
    d = DeterministicHead()(loc)
    for v in (d.sample(), d.rsample(), d.mode, d.mean, d.most_probable):
        np.testing.assert_array_equal(v.array, loc)
        assert v.dtype == np.float32
    assert d.sample(5).shape == (5, 3, 2)
    assert d.batch_shape == (3,) and d.event_shape == (2,)


def test_rsample_carries_gradient_and_sample_does_not(loc):
    x = kusari.Variable(loc.astype(np.float64))
    assert not DeterministicHead()(x).sample().requires_grad
    kusari.gradient_check.check_backward(lambda v: DeterministicHead()(v).rsample(),
                                         loc.astype(np.float64), np.ones((3, 2)))


def test_log_prob_and_entropy_are_undefined(loc):
    d = DeterministicHead()(loc)
    with pytest.raises(NotImplementedError):
        d.log_prob(loc)
    with pytest.raises(NotImplementedError):
        _ = d.entropy


def test_unbatched_input_is_refused():
    with pytest.raises(ValueError, match=r"DeterministicHead.*\(2,\)"):
        DeterministicHead()(np.zeros(2, np.float32))
