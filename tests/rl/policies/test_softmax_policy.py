"""SoftmaxCategoricalHead and the Categorical it returns, against NumPy."""
import kusari
import numpy as np
import pytest
from kusari.rl.policies import SoftmaxCategoricalHead


def _log_softmax(x):
    x = x - x.max(axis=1, keepdims=True)
    return x - np.log(np.exp(x).sum(axis=1, keepdims=True))


@pytest.fixture
def logits():
    return np.random.RandomState(0).randn(4, 3).astype(np.float32)


def test_log_prob_entropy_and_mode_match_numpy(logits):
    d = SoftmaxCategoricalHead()(logits)
    logp = _log_softmax(logits.astype(np.float64))
    actions = np.array([0, 2, 1, 2], dtype=np.int32)
    np.testing.assert_allclose(d.log_prob(actions).array, logp[np.arange(4), actions], rtol=1e-5)
    np.testing.assert_allclose(d.entropy.array, -(np.exp(logp) * logp).sum(axis=1), rtol=1e-5)
    np.testing.assert_array_equal(d.mode.array, logits.argmax(axis=1))
    np.testing.assert_array_equal(d.most_probable.array, logits.argmax(axis=1))
    np.testing.assert_allclose(d.probs.array, np.exp(logp), rtol=1e-5)
    np.testing.assert_allclose(d.logits.array, logp, rtol=1e-5, atol=1e-6)
    assert d.log_prob(actions).dtype == np.float32 and d.entropy.dtype == np.float32


def test_sample_frequencies_follow_softmax():
    np.random.seed(1)
    logits = np.array([[0.0, 1.0, -1.0]], dtype=np.float32)
    draws = SoftmaxCategoricalHead()(logits).sample(20000)
    assert draws.shape == (20000, 1) and draws.dtype.kind == "i" and not draws.requires_grad
    freq = np.bincount(draws.array.ravel(), minlength=3) / 20000
    np.testing.assert_allclose(freq, np.exp(_log_softmax(logits.astype(np.float64)))[0], atol=0.015)


def test_log_prob_is_differentiable_wrt_logits(logits):
    actions = np.array([0, 2, 1, 2], dtype=np.int32)
    kusari.gradient_check.check_backward(
        lambda x: SoftmaxCategoricalHead()(x).log_prob(actions), logits.astype(np.float64),
        np.ones(4))


def test_rsample_is_refused(logits):
    with pytest.raises(NotImplementedError, match="rsample"):
        SoftmaxCategoricalHead()(logits).rsample()


def test_scalar_logits_are_refused():
    with pytest.raises(ValueError, match=r"SoftmaxCategoricalHead.*\(\)"):
        SoftmaxCategoricalHead()(np.asarray(1.0, dtype=np.float32))
