"""kusari.rl.agents.iqn: the cosine embedding, one update against NumPy, a known MDP learnt, bad input."""
import math

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.iqn import IQN, CosineBasisLinear, ImplicitQuantileQFunction, cosine_basis_functions
from kusari.rl.replay_buffers import PrioritizedReplayBuffer, ReplayBuffer
from rl_discrete_chain import Q_STAR, train_on_chain
from rl_discrete_chain import UPDATE_A, UPDATE_S, UPDATE_S_NEXT, UPDATE_WEIGHTS, three_experience_update, update_returns

OBS, HIDDEN, N_BASIS, N_ACTIONS = 3, 4, 5, 2


def test_cosine_basis_functions():
    x = numpy.random.RandomState(0).uniform(0, 1, (2, 3)).astype(numpy.float32)
    h = cosine_basis_functions(x, 4)
    assert h.shape == (2, 3, 4) and h.dtype == numpy.float32
    numpy.testing.assert_allclose(h.array, numpy.cos(x[..., None] * math.pi * numpy.arange(1, 5)), rtol=1e-5, atol=1e-6)


def iqn_q(rng):
    return ImplicitQuantileQFunction(
        psi=L.Linear(OBS, HIDDEN, initialW=rng.normal(0, 1, (HIDDEN, OBS)).astype(numpy.float32),
                     initial_bias=rng.normal(0, 0.1, HIDDEN).astype(numpy.float32)),
        phi=kusari.Sequential(CosineBasisLinear(N_BASIS, HIDDEN), F.relu),
        f=L.Linear(HIDDEN, N_ACTIONS, initialW=rng.normal(0, 1, (N_ACTIONS, HIDDEN)).astype(numpy.float32),
                   initial_bias=rng.normal(0, 0.1, N_ACTIONS).astype(numpy.float32)))


class RecordedTaus:
    """Hands out fixed levels in the order the agent asks for them."""

    def __init__(self, taus):
        self.taus = list(taus)

    def __call__(self, batch_size, n):
        taus = self.taus.pop(0)
        assert taus.shape == (batch_size, n)
        return taus


def transition(s, a, r, s2, terminal=False):
    return dict(state=numpy.float32(s), action=a, reward=r, next_state=numpy.float32(s2),
                next_action=None, is_state_terminal=terminal)


def numpy_quantiles(params, x, taus):
    """(B, n_taus, n_actions) quantiles and the intermediate values, in float64."""
    psi = x @ params["psi/W"].T + params["psi/b"]
    basis = numpy.cos(taus[..., None] * math.pi * numpy.arange(1, N_BASIS + 1))
    pre = basis @ params["phi/W"].T + params["phi/b"]
    h = psi[:, None, :] * numpy.maximum(pre, 0)
    return h @ params["f/W"].T + params["f/b"], psi, basis, pre, h


@pytest.mark.parametrize("batch_accumulator", ["mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_update_matches_numpy(batch_accumulator, weighted):
    rng = numpy.random.RandomState(3)
    q = iqn_q(rng)
    gamma, lr, n, n_prime, k = 0.9, 0.1, 3, 4, 2
    agent = IQN(q, optimizers.SGD(lr=lr).setup(q), PrioritizedReplayBuffer(100) if weighted else ReplayBuffer(100),
                gamma, explorers.Greedy(), replay_start_size=3, minibatch_size=3, batch_accumulator=batch_accumulator,
                quantile_thresholds_N=n, quantile_thresholds_N_prime=n_prime, quantile_thresholds_K=k)
    for p in agent.target_model.params():
        p.array[...] += rng.normal(0, 0.5, p.shape).astype(numpy.float32)
    draws = [rng.uniform(0, 1, (3, m)).astype(numpy.float32) for m in (n, k, n_prime)]
    agent._sample_taus = RecordedTaus(draws)
    params = {name.strip("/").replace("/linear", "").replace("phi/0", "phi"): p.array.astype(numpy.float64).copy()
              for name, p in q.namedparams()}
    target = {name.strip("/").replace("/linear", "").replace("phi/0", "phi"): p.array.astype(numpy.float64)
              for name, p in agent.target_model.namedparams()}
    weights = UPDATE_WEIGHTS
    errors, sent_to_buffer = three_experience_update(agent, weighted)
    s, a, s_next = UPDATE_S, UPDATE_A, UPDATE_S_NEXT
    rewards, keep = update_returns(gamma)
    taus, taus_tilde, taus_prime = (d.astype(numpy.float64) for d in draws)
    z, psi, basis, pre, h = numpy_quantiles(params, s, taus)
    greedy = numpy_quantiles(target, s_next, taus_tilde)[0].mean(axis=1).argmax(axis=1)
    t = rewards[:, None] + keep[:, None] * numpy_quantiles(target, s_next, taus_prime)[0][numpy.arange(3), :, greedy]
    y = z[numpy.arange(3), :, a]
    d = y[:, :, None] - t[:, None, :]
    weight = numpy.abs(taus[:, :, None] - (d > 0))
    per_example = (weight * numpy.where(numpy.abs(d) <= 1, 0.5 * d ** 2, numpy.abs(d) - 0.5)).mean(axis=2).sum(axis=1)
    wt = weights if weighted else numpy.ones(3)
    scale = 1 / 3 if batch_accumulator == "mean" else 1
    g_z = numpy.zeros_like(z)
    g_z[numpy.arange(3), :, a] = (weight * numpy.clip(d, -1, 1)).mean(axis=2) * (wt * scale)[:, None]
    g_h = g_z @ params["f/W"]
    g_psi = (g_h * numpy.maximum(pre, 0)).sum(axis=1)
    g_pre = g_h * psi[:, None, :] * (pre > 0)
    expected = {
        "f/W": params["f/W"] - lr * numpy.einsum("bna,bnh->ah", g_z, h),
        "f/b": params["f/b"] - lr * g_z.sum(axis=(0, 1)),
        "psi/W": params["psi/W"] - lr * g_psi.T @ s,
        "psi/b": params["psi/b"] - lr * g_psi.sum(axis=0),
        "phi/W": params["phi/W"] - lr * numpy.einsum("bnh,bnk->hk", g_pre, basis),
        "phi/b": params["phi/b"] - lr * g_pre.sum(axis=(0, 1)),
    }
    for name, p in q.namedparams():
        key = name.strip("/").replace("/linear", "").replace("phi/0", "phi")
        numpy.testing.assert_allclose(p.array, expected[key], rtol=1e-5, atol=1e-6, err_msg=key)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats["average_loss"], (per_example * wt).sum() * scale, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_q"], z.mean(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(errors, per_example / n, rtol=1e-5)
    if weighted:
        numpy.testing.assert_allclose(sent_to_buffer, [per_example / n], rtol=1e-5)


def test_eval_mode_acts_on_evenly_spaced_levels():
    q = iqn_q(numpy.random.RandomState(0))
    agent = IQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=1,
                minibatch_size=1, quantile_thresholds_K=5, act_deterministically=True)
    obs = numpy.float32([0.3, -1, 0.5])
    with agent.eval_mode():
        action = agent.act(obs)
        levels = numpy.linspace(0, 1, 5, dtype=numpy.float32)[None]
        expected = q(obs[None])(levels).q_values.array.argmax()
    assert action == expected


def test_bad_q_functions_and_arguments():
    q = q_functions.FCStateQFunctionWithDiscreteAction(OBS, N_ACTIONS, 4, 1)
    agent = IQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=1,
                minibatch_size=1)
    with pytest.raises(TypeError, match="IQN: the q_function must return a function of quantile levels"):
        agent.act(numpy.float32([1, 0, 0]))
    q = iqn_q(numpy.random.RandomState(0))
    with pytest.raises(ValueError, match="IQN: quantile_thresholds_K must be an int >= 1, got 0"):
        IQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(), quantile_thresholds_K=0)
    agent = IQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=1,
                minibatch_size=1)
    agent.act(numpy.float32([1, 0, 0]))
    with pytest.raises(ValueError, match=r"IQN.batch_act: observation of shape \(4,\)"):
        agent.act(numpy.float32([1, 0, 0, 0]))


def test_learns_the_optimal_q_values():
    def make_q():
        return ImplicitQuantileQFunction(psi=kusari.Sequential(L.Linear(2, 16), F.relu),
                                         phi=kusari.Sequential(CosineBasisLinear(16, 16), F.relu),
                                         f=L.Linear(16, 2))

    agent = train_on_chain(IQN, make_q, steps=800, lr=0.01, quantile_thresholds_N=16,
                           quantile_thresholds_N_prime=16, quantile_thresholds_K=16,
                           act_deterministically=True)
    levels = numpy.tile(numpy.linspace(0.01, 0.99, 99, dtype=numpy.float32), (2, 1))
    with agent.eval_mode():
        q_values = agent.model(numpy.eye(2, dtype=numpy.float32))(levels).q_values.array
        numpy.testing.assert_array_equal(agent.batch_act(list(numpy.eye(2, dtype=numpy.float32))), [0, 0])
    numpy.testing.assert_allclose(q_values, Q_STAR, atol=0.05)
