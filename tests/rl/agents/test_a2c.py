"""A2C: the update against NumPy (n-step and GAE returns, truncation bootstrap), learning,
save/load, eval mode and errors."""
import gymnasium as gym
import kusari
import numpy as np
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents.a2c import A2C
from kusari.rl.utils import set_random_seed


def discrete_model(obs_size=2, hidden=()):
    return nn.Branched(kusari.Sequential(nn.MLP(obs_size, 2, hidden),
                                         policies.SoftmaxCategoricalHead()),
                       nn.MLP(obs_size, 1, hidden))


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


class Forever(gym.Env):
    """One state, reward 1 per step, truncated every 5 steps: V = 1 / (1 - gamma) when
    truncation bootstraps."""

    observation_space = gym.spaces.Box(0, 1, (2,), np.float32)
    action_space = gym.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        self.t = 0
        return np.array([1, 0], np.float32), {}

    def step(self, action):
        self.t += 1
        return np.array([1, 0], np.float32), 1.0, False, self.t == 5, {}


def run(agent, envs, steps):
    """Drive ``agent`` with a list of environments, resetting each when its episode ends."""
    obs = [env.reset(seed=i)[0] for i, env in enumerate(envs)]
    for _ in range(steps):
        actions = agent.batch_act(obs)
        results = [env.step(a) for env, a in zip(envs, actions)]
        agent.batch_observe([r[0] for r in results], [r[1] for r in results],
                            [r[2] for r in results], [r[3] for r in results])
        obs = [env.reset()[0] if r[2] or r[3] else r[0] for env, r in zip(envs, results)]


NAMES = {"pi_W": "/child_modules/0/0/output/W", "pi_b": "/child_modules/0/0/output/b",
         "v_W": "/child_modules/1/output/W", "v_b": "/child_modules/1/output/b"}


@pytest.mark.parametrize("use_gae", [False, True])
def test_update_matches_numpy(use_gae):
    set_random_seed(0)
    model = discrete_model()
    p0 = {k: dict(model.namedparams())[v].array.astype(np.float64) for k, v in NAMES.items()}
    gamma, tau, lr, v_coef, pi_coef, ent = 0.9, 0.7, 0.3, 0.5, 0.8, 0.1
    agent = A2C(model, optimizers.SGD(lr=lr).setup(model), gamma=gamma, num_processes=2,
                update_steps=2, pi_loss_coef=pi_coef, v_loss_coef=v_coef, entropy_coeff=ent,
                use_gae=use_gae, tau=tau)
    rng = np.random.RandomState(1)
    obs = rng.randn(3, 2, 2).astype(np.float32)
    final = rng.randn(2).astype(np.float32)  # env 1 truncated after step 0
    rewards = np.array([[1.0, 0.5], [-1.0, 2.0]])
    done = np.array([[False, False], [True, False]])
    reset = np.array([[False, True], [False, False]])
    actions = []
    for t in range(2):
        actions.append(agent.batch_act(list(obs[t])))
        next_obs = obs[t + 1].copy()
        if t == 0:
            next_obs[1] = final
        agent.batch_observe(list(next_obs), rewards[t], done[t], reset[t])

    value = lambda o: (o @ p0["v_W"].T + p0["v_b"])[..., 0]
    v = value(obs[:2])
    r = rewards.copy()
    r[0, 1] += gamma * value(final)
    mask = ~(done | reset)
    next_value = value(obs[2])
    returns = np.zeros((2, 2))
    if use_gae:
        values = np.concatenate([v, next_value[None]])
        gae = 0
        for t in (1, 0):
            delta = r[t] + gamma * values[t + 1] * mask[t] - values[t]
            gae = delta + gamma * tau * mask[t] * gae
            returns[t] = gae + values[t]
    else:
        ret = next_value
        for t in (1, 0):
            ret = r[t] + gamma * ret * mask[t]
            returns[t] = ret
    x = obs[:2].reshape(4, 2)
    a = np.concatenate(actions)
    z = x @ p0["pi_W"].T + p0["pi_b"]
    logp_all = z - np.log(np.exp(z).sum(1, keepdims=True))
    prob = np.exp(logp_all)
    entropy = -(prob * logp_all).sum(1)
    adv = returns.ravel() - v.ravel()
    d_z = (-pi_coef * adv / 4)[:, None] * (np.eye(2)[a] - prob)
    d_z += ent / 4 * prob * (logp_all + entropy[:, None])
    d_v = v_coef * -2 * adv / 4
    grads = {"pi_W": d_z.T @ x, "pi_b": d_z.sum(0), "v_W": d_v[None] @ x,
             "v_b": d_v.sum(keepdims=True)}
    got = dict(model.namedparams())
    for k, name in NAMES.items():
        np.testing.assert_allclose(got[name].array, p0[k] - lr * grads[k], rtol=1e-5, atol=1e-6)
    stats = dict(agent.get_statistics())
    np.testing.assert_allclose(stats["average_value"], 0.001 * np.mean(adv ** 2), rtol=1e-5)
    np.testing.assert_allclose(stats["average_actor"],
                               0.001 * -np.mean(adv * logp_all[np.arange(4), a]), rtol=1e-5)
    np.testing.assert_allclose(stats["average_entropy"], 0.001 * entropy.mean(), rtol=1e-5)
    assert agent.t == 2


def test_learns_the_bandit():
    set_random_seed(0)
    model = discrete_model()
    agent = A2C(model, optimizers.Adam(alpha=0.05).setup(model), gamma=0.9, num_processes=2,
                entropy_coeff=0.0)
    run(agent, [Bandit(), Bandit()], 300)
    distrib, value = model(np.array([[1, 0]], np.float32))
    assert distrib.p.array[0, 1] > 0.95
    assert abs(float(value.array[0, 0]) - 1.0) < 0.15


def test_truncated_episodes_bootstrap():
    set_random_seed(0)
    model = discrete_model()
    agent = A2C(model, optimizers.Adam(alpha=0.1).setup(model), gamma=0.8, num_processes=2)
    run(agent, [Forever(), Forever()], 600)
    _, value = model(np.array([[1, 0]], np.float32))
    assert abs(float(value.array[0, 0]) - 5.0) < 0.3  # 1 / (1 - 0.8)


def test_seeded_runs_are_bit_identical():
    finals = []
    for _ in range(2):
        set_random_seed(5)
        model = discrete_model(hidden=(8,))
        agent = A2C(model, optimizers.Adam(alpha=0.01).setup(model), gamma=0.9, num_processes=2)
        run(agent, [Bandit(), Bandit()], 30)
        finals.append(params(model))
    for name in finals[0]:
        np.testing.assert_array_equal(finals[0][name], finals[1][name])


def test_save_load_restores_actions_and_counter(tmp_path):
    set_random_seed(0)
    model = discrete_model(hidden=(8,))
    agent = A2C(model, optimizers.Adam(alpha=0.01).setup(model), gamma=0.9, num_processes=2,
                act_deterministically=True)
    names = [n for n, _ in agent.get_statistics()]
    assert names == ["average_actor", "average_value", "average_entropy"]
    run(agent, [Bandit(), Bandit()], 12)
    agent.save(str(tmp_path))
    set_random_seed(1)
    other_model = discrete_model(hidden=(8,))
    other = A2C(other_model, optimizers.Adam(alpha=0.01).setup(other_model), gamma=0.9,
                num_processes=2, act_deterministically=True)
    observations = list(np.random.RandomState(2).randn(16, 2).astype(np.float32))
    with agent.eval_mode():
        expected = agent.batch_act(observations)
    other.load(str(tmp_path))
    with other.eval_mode():
        np.testing.assert_array_equal(other.batch_act(observations), expected)
    assert other.t == 12 and other.optimizer.t == agent.optimizer.t == 2
    assert [n for n, _ in other.get_statistics()] == names
    run(other, [Bandit(), Bandit()], 5)  # training goes on after loading
    assert other.optimizer.t == 3


def test_eval_mode_stores_nothing_and_counts_nothing():
    set_random_seed(0)
    model = discrete_model()
    agent = A2C(model, optimizers.Adam().setup(model), gamma=0.9, num_processes=2,
                update_steps=2)
    before = params(model)
    with agent.eval_mode():
        run(agent, [Bandit(), Bandit(), Bandit()], 10)  # any number of eval environments
    assert agent.t == 0 and agent.optimizer.t == 0
    for name, p in params(model).items():
        np.testing.assert_array_equal(p, before[name])
    agent.observe(np.zeros(2, np.float32), 0.0, False, True)  # without act: ignored
    assert agent.t == 0


def test_bad_inputs_are_refused():
    model = discrete_model()
    agent = A2C(model, optimizers.Adam().setup(model), gamma=0.9, num_processes=2)
    with pytest.raises(ValueError, match="A2C: num_processes is 2, got 3"):
        agent.batch_act([np.zeros(2, np.float32)] * 3)
    agent.batch_act([np.zeros(2, np.float32)] * 2)
    with pytest.raises(ValueError, match=r"A2C.*\(5,\).*\(2,\)"):
        agent.batch_act([np.zeros(5, np.float32)] * 2)
    with pytest.raises(ValueError, match=r"A2C.batch_observe: .* must have length 2, got lengths \(2, 1, 1, 1\)"):
        agent.batch_observe([np.zeros(2, np.float32)] * 2, [0.0], [False], [False])
    policy_only = kusari.Sequential(nn.MLP(2, 2, []), policies.SoftmaxCategoricalHead())
    agent = A2C(policy_only, optimizers.Adam().setup(policy_only), gamma=0.9, num_processes=1)
    with pytest.raises(TypeError, match=r"A2C: the model must return \(action distribution"):
        agent.act(np.zeros(2, np.float32))


@pytest.mark.parametrize("kwargs, match", [
    ({"gamma": 2.0}, "gamma"), ({"tau": 1.5}, "tau"), ({"num_processes": 0}, "num_processes"),
    ({"update_steps": 0}, "update_steps"), ({"max_grad_norm": -1.0}, "max_grad_norm")])
def test_bad_hyperparameters_are_refused(kwargs, match):
    model = discrete_model()
    arguments = {"gamma": 0.9, "num_processes": 1, **kwargs}
    with pytest.raises(ValueError, match=rf"A2C: {match} must be"):
        A2C(model, optimizers.Adam().setup(model), **arguments)


def test_gaussian_policy_pendulum_smoke():
    set_random_seed(0)
    model = nn.Branched(kusari.Sequential(nn.MLP(3, 1, [16]),
                                          policies.GaussianHeadWithStateIndependentCovariance(1)),
                        nn.MLP(3, 1, [16]))
    agent = A2C(model, optimizers.RMSprop(lr=7e-4).setup(model), gamma=0.99, num_processes=2)
    envs = [gym.make("Pendulum-v1"), gym.make("Pendulum-v1")]
    run(agent, envs, 100)
    assert agent.optimizer.t == 20
    assert all(np.isfinite(v) for _, v in agent.get_statistics())
    action = agent.batch_act([envs[0].reset()[0], envs[1].reset()[0]])
    assert action.shape == (2, 1) and action.dtype == np.float32
