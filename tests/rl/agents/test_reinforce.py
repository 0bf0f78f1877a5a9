"""REINFORCE: the update against NumPy, learning a bandit, save/load, eval mode and errors."""
import gymnasium as gym
import kusari
import numpy as np
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents.reinforce import REINFORCE
from kusari.rl.utils import set_random_seed
from rl_continuous_control import run


def policy(obs_size=2, hidden=()):
    return kusari.Sequential(nn.MLP(obs_size, 2, hidden), policies.SoftmaxCategoricalHead())


def params(model):
    return {name: p.array.copy() for name, p in model.namedparams()}


class Bandit(gym.Env):
    """One-step episodes; action 1 pays 1, action 0 pays 0."""

    observation_space = gym.spaces.Box(-1, 1, (2,), np.float32)
    action_space = gym.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        return np.array([1, 0], np.float32), {}

    def step(self, action):
        return np.array([1, 0], np.float32), float(action), True, False, {}


@pytest.mark.parametrize("backward_separately", [False, True])
def test_update_matches_numpy(backward_separately):
    set_random_seed(0)
    model = policy()
    W0, b0 = (p.array.astype(np.float64) for p in (model[0].output.W, model[0].output.b))
    lr, beta = 0.5, 0.1
    agent = REINFORCE(model, optimizers.SGD(lr=lr).setup(model), beta=beta, batchsize=2,
                      backward_separately=backward_separately)
    rng = np.random.RandomState(1)
    obs = rng.randn(3, 2).astype(np.float32)
    rewards = [1.0, 2.0, -0.5]
    actions = []
    for t, done in enumerate([False, True, True]):  # episodes of 2 steps and 1 step
        actions.append(agent.act(obs[t]))
        agent.observe(rng.randn(2).astype(np.float32), rewards[t], done, False)
    assert agent.optimizer.t == 1
    returns = np.array([3.0, 2.0, -0.5])  # undiscounted reward-to-go per episode
    z = obs @ W0.T + b0
    logp = z - np.log(np.exp(z).sum(1, keepdims=True))
    prob = np.exp(logp)
    entropy = -(prob * logp).sum(1)
    d_z = (-returns[:, None] * (np.eye(2)[actions] - prob)
           + beta * prob * (logp + entropy[:, None])) / 2
    np.testing.assert_allclose(model[0].output.W.array, W0 - lr * d_z.T @ obs, rtol=1e-5,
                               atol=1e-6)
    np.testing.assert_allclose(model[0].output.b.array, b0 - lr * d_z.sum(0), rtol=1e-5,
                               atol=1e-6)
    average = 0.0
    for h in entropy:
        average += 0.001 * (h - average)
    np.testing.assert_allclose(dict(agent.get_statistics())["average_entropy"], average,
                               rtol=1e-5)


def test_learns_the_bandit():
    set_random_seed(0)
    model = policy()
    agent = REINFORCE(model, optimizers.Adam(alpha=0.05).setup(model), batchsize=4)
    run(agent, Bandit(), 300)
    assert model(np.array([[1, 0]], np.float32)).p.array[0, 1] > 0.95


def test_truncated_episodes_are_dropped_with_a_warning():
    model = policy()
    agent = REINFORCE(model, optimizers.SGD(lr=1.0).setup(model))
    before = params(model)
    agent.act(np.zeros(2, np.float32))
    with pytest.warns(UserWarning, match="terminated episodes only"):
        agent.observe(np.zeros(2, np.float32), 1.0, False, True)
    agent.act(np.ones(2, np.float32))
    agent.observe(np.zeros(2, np.float32), 0.0, True, False)  # reward 0: no gradient from R
    for name, p in params(model).items():  # beta = 0 and the truncated reward was dropped
        np.testing.assert_array_equal(p, before[name])
    assert agent.optimizer.t == 1


def test_seeded_runs_are_bit_identical():
    finals = []
    for _ in range(2):
        set_random_seed(7)
        model = policy(hidden=(8,))
        agent = REINFORCE(model, optimizers.Adam(alpha=0.01).setup(model), beta=0.01)
        run(agent, Bandit(), 20)
        finals.append(params(model))
    for name in finals[0]:
        np.testing.assert_array_equal(finals[0][name], finals[1][name])


def test_save_load_restores_actions_and_counter(tmp_path):
    set_random_seed(0)
    model = policy(hidden=(8,))
    agent = REINFORCE(model, optimizers.Adam(alpha=0.05).setup(model),
                      act_deterministically=True)
    assert [n for n, _ in agent.get_statistics()] == ["average_entropy"]
    run(agent, Bandit(), 10)
    agent.save(str(tmp_path))
    set_random_seed(1)
    other_model = policy(hidden=(8,))
    other = REINFORCE(other_model, optimizers.Adam(alpha=0.05).setup(other_model),
                      act_deterministically=True)
    observations = np.random.RandomState(2).randn(20, 2).astype(np.float32)
    with agent.eval_mode():
        expected = [agent.act(o) for o in observations]
    other.load(str(tmp_path))
    with other.eval_mode():
        assert [other.act(o) for o in observations] == expected
    assert other.t == 10 and other.optimizer.t == 10
    assert [n for n, _ in other.get_statistics()] == ["average_entropy"]


def test_eval_mode_stores_nothing_and_counts_nothing():
    set_random_seed(0)
    model = policy()
    agent = REINFORCE(model, optimizers.Adam().setup(model))
    before = params(model)
    with agent.eval_mode():
        run(agent, Bandit(), 10)
    assert agent.t == 0 and agent.optimizer.t == 0
    for name, p in params(model).items():
        np.testing.assert_array_equal(p, before[name])
    agent.observe(np.zeros(2, np.float32), 1.0, True, False)  # without act: ignored
    assert agent.t == 0 and agent.optimizer.t == 0


def test_bad_inputs_are_refused():
    model = policy()
    agent = REINFORCE(model, optimizers.Adam().setup(model))
    agent.act(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match=r"REINFORCE.*\(4,\).*\(2,\)"):
        agent.act(np.zeros(4, np.float32))
    branched = nn.Branched(policy(), nn.MLP(2, 1, []))
    agent = REINFORCE(branched, optimizers.Adam().setup(branched))
    with pytest.raises(TypeError, match="REINFORCE: the model must return an action distribution"):
        agent.act(np.zeros(2, np.float32))
    with pytest.raises(NotImplementedError, match="REINFORCE: recurrent"):
        REINFORCE(model, optimizers.Adam().setup(model), recurrent=True)
    with pytest.raises(ValueError, match="REINFORCE: batchsize must be an int >= 1, got 0"):
        REINFORCE(model, optimizers.Adam().setup(model), batchsize=0)
    with pytest.raises(ValueError, match="REINFORCE: max_grad_norm must be None or > 0"):
        REINFORCE(model, optimizers.Adam().setup(model), max_grad_norm=0)


def test_cartpole_and_pendulum_smoke():
    set_random_seed(0)
    model = policy(obs_size=4, hidden=(16,))
    agent = REINFORCE(model, optimizers.Adam(alpha=1e-2).setup(model), max_grad_norm=1.0)
    run(agent, gym.make("CartPole-v1"), 300)
    assert agent.optimizer.t > 5 and np.isfinite(agent.average_entropy)
    gaussian = kusari.Sequential(nn.MLP(3, 1, [16]),
                                 policies.GaussianHeadWithStateIndependentCovariance(1))
    agent = REINFORCE(gaussian, optimizers.Adam(alpha=1e-3).setup(gaussian))
    obs, _ = gym.make("Pendulum-v1").reset(seed=0)
    action = agent.act(obs)
    assert action.shape == (1,) and action.dtype == np.float32
