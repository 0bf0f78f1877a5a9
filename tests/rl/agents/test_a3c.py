"""A3C: one update against NumPy, updates shared between forked processes, save/load, eval mode
and errors."""
import kusari
import numpy as np
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents.a3c import A3C
from kusari.rl.optimizers import SharedRMSpropEpsInsideSqrt
from kusari.rl.utils import async_, set_random_seed

NAMES = {"pi_W": "/child_modules/0/0/output/W", "pi_b": "/child_modules/0/0/output/b",
         "v_W": "/child_modules/1/output/W", "v_b": "/child_modules/1/output/b"}


def discrete_model(obs_size=2):
    return nn.Branched(kusari.Sequential(nn.MLP(obs_size, 2, ()), policies.SoftmaxCategoricalHead()),
                       nn.MLP(obs_size, 1, ()))


def arrays(model):
    return {name: p.array.copy() for name, p in model.namedparams()}


def rollout(agent, obs, done_at_end):
    """Act on obs[:-1] with reward i + 1 at step i; the last step ends with obs[-1]."""
    actions = []
    for i in range(len(obs) - 1):
        actions.append(int(agent.act(obs[i])))
        last = i == len(obs) - 2
        agent.observe(obs[i + 1], float(i + 1), done_at_end and last, False)
    return actions


@pytest.mark.parametrize("case", ["bootstrap", "terminal_scaled"])
def test_one_update_matches_numpy(case):
    set_random_seed(0)
    model = discrete_model()
    p0 = {k: dict(model.namedparams())[v].array.astype(np.float64) for k, v in NAMES.items()}
    gamma, lr, beta, pi_coef, v_coef, decay = 0.9, 0.1, 0.05, 0.8, 0.6, 0.5
    terminal = case == "terminal_scaled"
    t_max = 5 if terminal else 3
    agent = A3C(model, optimizers.SGD(lr=lr).setup(model), t_max=t_max, gamma=gamma, beta=beta,
                pi_loss_coef=pi_coef, v_loss_coef=v_coef, keep_loss_scale_same=terminal,
                normalize_grad_by_t_max=terminal, average_value_decay=decay)
    obs = np.random.RandomState(1).randn(4, 2).astype(np.float32)
    actions = rollout(agent, obs, done_at_end=terminal)
    assert agent.t == 3 and agent.t_start == 3

    x = obs.astype(np.float64)
    logits = x[:3] @ p0["pi_W"].T + p0["pi_b"]
    p = np.exp(logits - logits.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    logp = np.log(p)
    entropy = -(p * logp).sum(1)
    v = x @ p0["v_W"].T[:, 0] + p0["v_b"][0]
    ret = 0.0 if terminal else v[3]
    returns = np.zeros(3)
    for i in (2, 1, 0):
        ret = (i + 1) + gamma * ret
        returns[i] = ret
    pi_f, v_f = pi_coef, v_coef
    if terminal:  # 3 steps of t_max = 5: scaled by 5 / 3, then divided by 3
        pi_f, v_f = pi_f * 5 / 9, v_f * 5 / 9
    adv = returns - v[:3]
    onehot = np.eye(2)[actions]
    d_logits = pi_f * (-adv[:, None] * (onehot - p) + beta * p * (logp + entropy[:, None]))
    d_v = v_f * (v[:3] - returns)
    expected = {"pi_W": p0["pi_W"] - lr * d_logits.T @ x[:3], "pi_b": p0["pi_b"] - lr * d_logits.sum(0),
                "v_W": p0["v_W"] - lr * (d_v @ x[:3])[None], "v_b": p0["v_b"] - lr * d_v.sum(keepdims=True)}
    params = dict(model.namedparams())
    for key, name in NAMES.items():
        assert params[name].array.dtype == np.float32
        np.testing.assert_allclose(params[name].array, expected[key], rtol=1e-5, atol=1e-6, err_msg=key)
    # statistics: moving averages over the three acting steps, from 0
    avg_v = avg_h = 0.0
    for i in range(3):
        avg_v += (1 - decay) * (v[i] - avg_v)
        avg_h += (1 - 0.999) * (entropy[i] - avg_h)
    stats = dict(agent.get_statistics())
    assert list(stats) == ["average_value", "average_entropy"]
    np.testing.assert_allclose([stats["average_value"], stats["average_entropy"]], [avg_v, avg_h],
                               rtol=1e-5)


def test_the_local_model_is_a_copy_synced_at_the_next_rollout():
    model = discrete_model()
    agent = A3C(model, optimizers.SGD(lr=0.1).setup(model), t_max=2, gamma=0.9)
    assert agent.model is not model and agent.shared_model is model
    rollout(agent, np.ones((3, 2), np.float32), done_at_end=True)
    local = arrays(agent.model)
    assert any(not np.array_equal(local[k], v) for k, v in arrays(model).items())  # not synced yet
    agent.act(np.ones(2, np.float32))
    for name, value in arrays(model).items():
        np.testing.assert_array_equal(arrays(agent.model)[name], value)


def make_agent():
    model = discrete_model()
    return A3C(model, SharedRMSpropEpsInsideSqrt(lr=0.05, eps=0.1).setup(model), t_max=2, gamma=0.9)


ROLLOUTS = np.random.RandomState(2).randn(2, 3, 2).astype(np.float32)


def test_updates_of_two_processes_reach_the_shared_model():
    set_random_seed(0)
    agent = make_agent()
    initial = arrays(agent.shared_model)
    async_.share_agent(agent)
    turn = async_.fork_context().Event()

    def run(i):
        if i == 1:
            assert turn.wait(30)  # in turn, so that the arithmetic is exact
        agent.process_idx = i
        set_random_seed(10 + i)
        rollout(agent, ROLLOUTS[i], done_at_end=True)
        turn.set()

    async_.run_async(2, run)

    set_random_seed(0)
    reference = make_agent()
    for name, value in arrays(reference.shared_model).items():
        np.testing.assert_array_equal(value, initial[name])
    for i in range(2):  # the same rollouts, one after the other, in one process
        set_random_seed(10 + i)
        rollout(reference, ROLLOUTS[i], done_at_end=True)
    expected = arrays(reference.shared_model)
    for name, value in arrays(agent.shared_model).items():
        np.testing.assert_allclose(value, expected[name], rtol=1e-6, err_msg=name)
        assert not np.allclose(value, initial[name])
    ms = {n: p.update_rule.state["ms"] for n, p in agent.shared_model.namedparams()}
    for name, param in reference.shared_model.namedparams():
        np.testing.assert_allclose(ms[name], param.update_rule.state["ms"], rtol=1e-6)


def test_save_and_load(tmp_path):
    set_random_seed(0)
    agent = make_agent()
    rollout(agent, ROLLOUTS[0], done_at_end=False)
    agent.save(str(tmp_path / "a3c"))
    loaded = make_agent()
    loaded.load(str(tmp_path / "a3c"))
    assert loaded.t == agent.t == loaded.t_start
    for link in (loaded.shared_model, loaded.model):
        for name, value in arrays(link).items():
            np.testing.assert_array_equal(value, arrays(agent.shared_model)[name])
    for (name, p), q in zip(loaded.shared_model.namedparams(), agent.shared_model.params()):
        np.testing.assert_array_equal(p.update_rule.state["ms"], q.update_rule.state["ms"])


def test_eval_mode_acts_with_the_shared_parameters_and_learns_nothing():
    model = discrete_model()
    agent = A3C(model, optimizers.SGD(lr=0.1).setup(model), t_max=1, gamma=0.9,
                act_deterministically=True)
    obs = np.array([1, 0], np.float32)
    model.child_modules[0][0].output.b.array[...] = [0, 5]  # the shared model prefers action 1
    before = arrays(model)
    with agent.eval_mode():
        assert [int(agent.act(obs)) for _ in range(5)] == [1] * 5
        agent.observe(obs, 1.0, True, False)
    assert agent.t == 0 and agent.training
    for name, value in arrays(model).items():
        np.testing.assert_array_equal(value, before[name])
    agent.observe(obs, 1.0, True, False)  # no training act preceded it: ignored
    assert agent.t == 0


def test_process_idx_and_shared_attributes():
    agent = make_agent()
    assert agent.process_idx == 0 and agent.shared_attributes == ("shared_model", "optimizer")
    agent.process_idx = 3
    assert agent.process_idx == 3
    with pytest.raises(ValueError, match="A3C: process_idx must be None or an int >= 0, got -1"):
        agent.process_idx = -1


@pytest.mark.parametrize("kwargs, error, match", [
    ({"t_max": 0}, ValueError, "A3C: t_max must be an int >= 1, got 0"),
    ({"gamma": 1.5}, ValueError, r"A3C: gamma must be in \[0, 1\], got 1.5"),
    ({"beta": -1}, ValueError, "A3C: beta must be >= 0"),
    ({"max_grad_norm": 0}, ValueError, "A3C: max_grad_norm must be None or > 0"),
    ({"recurrent": True}, NotImplementedError, "A3C: recurrent=True"),
    ({"use_average_reward": True}, NotImplementedError, "A3C: use_average_reward=True"),
])
def test_bad_arguments(kwargs, error, match):
    model = discrete_model()
    args = {"model": model, "optimizer": optimizers.SGD().setup(model), "t_max": 2, "gamma": 0.9}
    with pytest.raises(error, match=match):
        A3C(**{**args, **kwargs})


def test_bad_inputs():
    model = discrete_model()
    with pytest.raises(ValueError, match="A3C: optimizer must be a kusari Optimizer set up"):
        A3C(model, optimizers.SGD(), t_max=2, gamma=0.9)
    agent = A3C(model, optimizers.SGD().setup(model), t_max=2, gamma=0.9)
    agent.act(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match=r"A3C: observation of shape \(3,\)"):
        agent.act(np.zeros(3, np.float32))
    policy_only = kusari.Sequential(nn.MLP(2, 2, ()), policies.SoftmaxCategoricalHead())
    agent = A3C(policy_only, optimizers.SGD().setup(policy_only), t_max=2, gamma=0.9)
    with pytest.raises(TypeError, match=r"A3C: the model must return \(action distribution, value\)"):
        agent.act(np.zeros(2, np.float32))
