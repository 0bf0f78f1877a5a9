"""Lambda, ConcatObsAndAction, BoundByTanh and Branched: values, composition and errors."""
import kusari
import numpy as np
import pytest
from kusari.rl.nn import (
    MLP,
    BoundByTanh,
    Branched,
    ConcatObsAndAction,
    Lambda,
    bound_by_tanh,
)


def test_lambda_applies_its_callable_inside_sequential():
    seq = kusari.Sequential(Lambda(lambda x: 2 * x), MLP(2, 1, []))
    x = np.ones((3, 2), np.float32)
    np.testing.assert_allclose(seq(x).array, seq[1](2 * x).array)
    with pytest.raises(TypeError, match="Lambda"):
        Lambda(3)


def test_concat_obs_and_action_feeds_a_critic_from_one_tuple():
    obs = np.arange(6, dtype=np.float32).reshape(2, 3)
    act = -np.arange(4, dtype=np.float32).reshape(2, 2)
    np.testing.assert_array_equal(ConcatObsAndAction()((obs, act)).array,
                                  np.concatenate([obs, act], axis=1))
    critic = kusari.Sequential(ConcatObsAndAction(), MLP(5, 1, [4]))
    assert critic((obs, act)).shape == (2, 1)
    with pytest.raises(ValueError, match=r"obs.shape=\(2, 3\), action.shape=\(3, 2\)"):
        ConcatObsAndAction()((obs, np.zeros((3, 2), np.float32)))
    with pytest.raises(ValueError, match="3 items"):
        ConcatObsAndAction()((obs, act, act))


def test_bound_by_tanh_matches_formula_and_bounds():
    low = np.array([-1.0, 0.0, 2.0])
    high = np.array([1.0, 4.0, 2.5])
    x = np.random.RandomState(0).randn(5, 3).astype(np.float32) * 3
    y = BoundByTanh(low, high)(x)
    assert y.dtype == np.float32
    np.testing.assert_allclose(y.array, np.tanh(x) * (high - low) / 2 + (high + low) / 2,
                               rtol=1e-6)
    assert np.all(y.array >= low.astype(np.float32)) and np.all(y.array <= high.astype(np.float32))
    kusari.gradient_check.check_backward(lambda v: bound_by_tanh(v, low, high),
                                         x.astype(np.float64), np.ones((5, 3)))
    with pytest.raises(ValueError, match="low must not exceed high"):
        bound_by_tanh(x, high, low)


def test_branched_returns_every_branch_and_names_them_like_pfrl():
    a, b = MLP(3, 2, []), MLP(3, 1, [4])
    br = Branched(a, b)
    x = np.random.RandomState(0).randn(4, 3).astype(np.float32)
    ya, yb = br(x)
    np.testing.assert_array_equal(ya.array, a(x).array)
    np.testing.assert_array_equal(yb.array, b(x).array)
    assert {n for n, _ in br.namedparams()} == {
        "/child_modules/0/output/W", "/child_modules/0/output/b",
        "/child_modules/1/hidden_layers/0/W", "/child_modules/1/hidden_layers/0/b",
        "/child_modules/1/output/W", "/child_modules/1/output/b"}
    with pytest.raises(TypeError, match="Branched: module 1"):
        Branched(a, lambda x: x)
