"""PPO: the clipped-objective update against NumPy, GAE with truncation, learning, save/load, errors."""
import gymnasium as gym
import kusari
import kusari.functions as F
import numpy as np
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents.ppo import PPO, generalized_advantages
from kusari.rl.utils import set_random_seed
from rl_continuous_control import run


def discrete_model(obs_size=2, n_actions=2, hidden=()):
    return nn.Branched(kusari.Sequential(nn.MLP(obs_size, n_actions, hidden),
                                         policies.SoftmaxCategoricalHead()),
                       nn.MLP(obs_size, 1, hidden))


def params(model):
    return {name: p.array.copy() for name, p in model.namedparams()}


class Bandit(gym.Env):
    """One-step episodes; action 1 pays 1, action 0 pays 0. Optimal: always 1, V = 1."""

    observation_space = gym.spaces.Box(-1, 1, (2,), np.float32)
    action_space = gym.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        return np.array([1, 0], np.float32), {}

    def step(self, action):
        return np.array([1, 0], np.float32), float(action), True, False, {}


# -- one update, by hand ---------------------------------------------------------------------------

def numpy_loss_and_grads(p, x, a, adv, logp_old, v_old, target, clip_eps, vf_coef, ent_coef,
                         clip_eps_vf=None):
    """PPO's ratios, policy and value losses and the gradient of the whole loss, for a linear
    policy (logits x W^T + b) and a linear value function."""
    n = len(x)
    z = x @ p["pi_W"].T + p["pi_b"]
    logp_all = z - np.log(np.exp(z - z.max(1, keepdims=True)).sum(1, keepdims=True)) - z.max(
        1, keepdims=True)
    prob = np.exp(logp_all)
    logp = logp_all[np.arange(n), a]
    v = (x @ p["v_W"].T + p["v_b"])[:, 0]
    ratio = np.exp(logp - logp_old)
    unclipped, clipped = ratio * adv, np.clip(ratio, 1 - clip_eps, 1 + clip_eps) * adv
    loss_pi = -np.mean(np.minimum(unclipped, clipped))
    d_logp = -(ratio * adv) * (unclipped <= clipped) / n
    if clip_eps_vf is None:
        loss_v = np.mean((v - target) ** 2)
        d_v = 2 * (v - target) / n
    else:
        vc = np.clip(v, v_old - clip_eps_vf, v_old + clip_eps_vf)
        e1, e2 = (v - target) ** 2, (vc - target) ** 2
        loss_v = np.mean(np.maximum(e1, e2))
        inside = (v > v_old - clip_eps_vf) & (v < v_old + clip_eps_vf)
        d_v = np.where(e1 >= e2, 2 * (v - target), 2 * (vc - target) * inside) / n
    entropy = -(prob * logp_all).sum(1)
    onehot = np.eye(z.shape[1])[a]
    d_z = d_logp[:, None] * (onehot - prob)
    d_z += ent_coef / n * prob * (logp_all + entropy[:, None])  # d(-c mean H)/dz
    d_v = vf_coef * d_v
    grads = {"pi_W": d_z.T @ x, "pi_b": d_z.sum(0), "v_W": d_v[None] @ x, "v_b": d_v.sum(keepdims=True)}
    return ratio, loss_pi, loss_v, grads


NAMES = {"pi_W": "/child_modules/0/0/output/W", "pi_b": "/child_modules/0/0/output/b",
         "v_W": "/child_modules/1/output/W", "v_b": "/child_modules/1/output/b"}


@pytest.mark.parametrize("clip_eps_vf", [None, 0.05])
def test_update_matches_numpy_with_two_envs_a_truncation_and_a_termination(clip_eps_vf):
    set_random_seed(0)
    model = discrete_model()
    start = {k: dict(model.namedparams())[v].array.copy() for k, v in NAMES.items()}
    gamma, lambd, lr = 0.9, 0.8, 0.5
    agent = PPO(model, optimizers.SGD(lr=lr).setup(model), gamma=gamma, lambd=lambd,
                update_interval=6, minibatch_size=6, epochs=2, value_func_coef=0.5,
                entropy_coef=0.1, clip_eps=0.2, clip_eps_vf=clip_eps_vf)
    agent.clip_eps = 0.05  # scheduled after construction: must be the one used
    rng = np.random.RandomState(1)
    obs = rng.randn(4, 2, 2).astype(np.float32)  # obs[t] for t = 0..3, two environments
    final = rng.randn(2).astype(np.float32)  # env 1's last observation when truncated at t=1
    rewards = np.array([[1.0, 0.5], [-1.0, 2.0], [0.25, 1.5]], np.float32)
    done = np.array([[False, False], [False, False], [True, False]])
    reset = np.array([[False, False], [False, True], [False, False]])
    actions = []
    for t in range(3):
        actions.append(agent.batch_act(list(obs[t])))
        next_obs = obs[t + 1].copy()
        if t == 1:
            next_obs[1] = final
        agent.batch_observe(list(next_obs), rewards[t], done[t], reset[t])
    assert agent.n_updates == 2

    x = obs[:3].reshape(6, 2)
    a = np.concatenate(actions)
    value = lambda o: (o @ start["v_W"].T + start["v_b"])[..., 0]
    v = value(obs[:3])
    next_v = value(obs[1:4])
    next_v[1, 1] = value(final)
    adv = np.zeros((3, 2), np.float32)
    last = np.zeros(2, np.float32)
    for t in (2, 1, 0):
        delta = rewards[t] + gamma * (~done[t]) * next_v[t] - v[t]
        last = delta + gamma * lambd * ~(done[t] | reset[t]) * last
        adv[t] = last
    target = (adv + v).ravel()
    adv = adv.ravel()
    std_adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    z = x @ start["pi_W"].T + start["pi_b"]
    logp_old = (z - np.log(np.exp(z).sum(1, keepdims=True)))[np.arange(6), a]

    p = {k: w.astype(np.float64) for k, w in start.items()}
    losses = []
    for _ in range(2):
        ratio, loss_pi, loss_v, grads = numpy_loss_and_grads(
            p, x, a, std_adv, logp_old, v.ravel(), target, 0.05, 0.5, 0.1, clip_eps_vf)
        losses.append((loss_pi, loss_v))
        p = {k: p[k] - lr * grads[k] for k in p}
    assert np.any(np.abs(ratio - 1) > 0.05)  # the second step clipped some ratios
    got = dict(model.namedparams())
    for k, name in NAMES.items():
        np.testing.assert_allclose(got[name].array, p[k], rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(list(agent.policy_loss_record), [pl for pl, _ in losses],
                               rtol=1e-4, atol=1e-6)
    np.testing.assert_allclose(list(agent.value_loss_record), [vl for _, vl in losses],
                               rtol=1e-4, atol=1e-6)
    stats = dict(agent.get_statistics())
    np.testing.assert_allclose(stats["average_value"], v.mean(), rtol=1e-5)
    expected_ev = 1 - np.var(target - v.ravel()) / np.var(target)
    np.testing.assert_allclose(stats["explained_variance"], expected_ev, rtol=1e-4)


def test_generalized_advantages_match_a_per_episode_loop():
    rng = np.random.RandomState(0)
    T, B = 7, 3
    r, v, nv = (rng.randn(T, B).astype(np.float32) for _ in range(3))
    terminal = rng.rand(T, B) < 0.2
    ends = terminal | (rng.rand(T, B) < 0.2)
    got = generalized_advantages(r, v, nv, terminal, ends, 0.95, 0.9)
    assert got.dtype == np.float32
    for b in range(B):
        running = 0.0
        for t in reversed(range(T)):
            if ends[t, b]:
                running = 0.0
            running = r[t, b] + 0.95 * (0 if terminal[t, b] else nv[t, b]) - v[t, b] + \
                0.95 * 0.9 * running
            np.testing.assert_allclose(got[t, b], running, rtol=1e-5, atol=1e-6)


# -- learning ------------------------------------------------------------------------------------

def test_learns_the_bandit():
    set_random_seed(0)
    model = discrete_model()
    agent = PPO(model, optimizers.Adam(alpha=0.05).setup(model), update_interval=32,
                minibatch_size=16, epochs=4, entropy_coef=0.0)
    run(agent, Bandit(), 320)
    distrib, value = model(np.array([[1, 0]], np.float32))
    assert distrib.p.array[0, 1] > 0.95
    assert abs(float(value.array[0, 0]) - 1.0) < 0.15


class Forever(gym.Env):
    """One state, reward 1 every step, never terminates; truncated every 5 steps.
    With bootstrapping on truncation V = 1 / (1 - gamma); treating truncation as termination
    would give the average remaining discounted reward of a 5-step episode (about 4)."""

    observation_space = gym.spaces.Box(0, 1, (1,), np.float32)
    action_space = gym.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.t = 0
        return np.ones(1, np.float32), {}

    def step(self, action):
        self.t += 1
        return np.ones(1, np.float32), 1.0, False, self.t == 5, {}


def test_truncated_episodes_bootstrap_from_the_last_observation():
    set_random_seed(0)
    model = discrete_model(obs_size=1)
    agent = PPO(model, optimizers.Adam(alpha=0.2).setup(model), gamma=0.8, update_interval=20,
                minibatch_size=20, epochs=5, standardize_advantages=False)
    run(agent, Forever(), 1200)
    _, value = model(np.ones((1, 1), np.float32))
    assert abs(float(value.array[0, 0]) - 5.0) < 0.25  # 1 / (1 - 0.8)


def test_gaussian_policy_moves_its_mean_to_the_best_action():
    class Target(gym.Env):
        observation_space = gym.spaces.Box(-1, 1, (1,), np.float32)
        action_space = gym.spaces.Box(-2, 2, (1,), np.float32)

        def reset(self, seed=None, options=None):
            return np.ones(1, np.float32), {}

        def step(self, action):
            return np.ones(1, np.float32), -float((action[0] - 0.5) ** 2), True, False, {}

    set_random_seed(0)
    model = nn.Branched(kusari.Sequential(nn.MLP(1, 1, []),
                                          policies.GaussianHeadWithStateIndependentCovariance(1)),
                        nn.MLP(1, 1, []))
    agent = PPO(model, optimizers.Adam(alpha=0.03).setup(model), update_interval=64,
                minibatch_size=32, epochs=4, entropy_coef=0.0)
    run(agent, Target(), 640)
    distrib, _ = model(np.ones((1, 1), np.float32))
    assert abs(float(distrib.mean.array[0, 0]) - 0.5) < 0.15
    assert isinstance(agent.act(np.ones(1, np.float32)), np.ndarray)


def test_seeded_runs_are_bit_identical():
    finals = []
    for _ in range(2):
        set_random_seed(3)
        model = discrete_model(hidden=(8,))
        agent = PPO(model, optimizers.Adam(alpha=0.01).setup(model), update_interval=16,
                    minibatch_size=8, epochs=2)
        run(agent, Bandit(), 48)
        finals.append(params(model))
    for name in finals[0]:
        np.testing.assert_array_equal(finals[0][name], finals[1][name])


# -- interface -----------------------------------------------------------------------------------

STAT_NAMES = ["average_value", "average_entropy", "average_value_loss", "average_policy_loss",
              "n_updates", "explained_variance"]


def test_save_load_restores_actions_counters_and_optimizer(tmp_path):
    set_random_seed(0)
    model = discrete_model(hidden=(8,))
    agent = PPO(model, optimizers.Adam(alpha=0.01).setup(model), update_interval=8,
                minibatch_size=4, epochs=1, act_deterministically=True)
    assert [n for n, _ in agent.get_statistics()] == STAT_NAMES
    run(agent, Bandit(), 16)
    agent.save(str(tmp_path))

    set_random_seed(1)
    other_model = discrete_model(hidden=(8,))
    other = PPO(other_model, optimizers.Adam(alpha=0.01).setup(other_model),
                act_deterministically=True)
    observations = np.random.RandomState(2).randn(20, 2).astype(np.float32)
    with agent.eval_mode():
        expected = [agent.act(o) for o in observations]
    other.load(str(tmp_path))
    with other.eval_mode():
        assert [other.act(o) for o in observations] == expected
    assert other.n_updates == agent.n_updates == 4
    assert other.optimizer.t == agent.optimizer.t
    assert [n for n, _ in other.get_statistics()] == STAT_NAMES
    for name, p in params(model).items():
        np.testing.assert_array_equal(dict(other_model.namedparams())[name].array, p)


def test_eval_mode_stores_nothing_and_counts_nothing():
    set_random_seed(0)
    model = discrete_model()
    agent = PPO(model, optimizers.Adam().setup(model), update_interval=4, minibatch_size=2,
              epochs=1)
    before = params(model)
    with agent.eval_mode():
        run(agent, Bandit(), 20)
    assert agent.n_updates == 0 and len(agent._rollout) == 0
    assert np.isnan(dict(agent.get_statistics())["average_value"])
    for name, p in params(model).items():
        np.testing.assert_array_equal(p, before[name])
    run(agent, Bandit(), 4)  # training resumes and learns
    assert agent.n_updates == 2


def test_observe_without_act_is_ignored():
    model = discrete_model()
    agent = PPO(model, optimizers.Adam().setup(model), update_interval=1, minibatch_size=1)
    agent.observe(np.zeros(2, np.float32), 0.0, False, True)
    assert agent.n_updates == 0 and len(agent._rollout) == 0


def test_bad_observations_are_refused():
    model = discrete_model()
    agent = PPO(model, optimizers.Adam().setup(model))
    agent.act(np.zeros(2, np.float32))
    with pytest.raises(ValueError, match=r"PPO.*\(3,\).*\(2,\)"):
        agent.act(np.zeros(3, np.float32))
    with pytest.raises(ValueError, match=r"PPO.*float64"):
        agent.act(np.zeros(2, np.float64))
    with pytest.raises(ValueError, match=r"PPO.*1 environments, got 2"):
        agent.batch_act([np.zeros(2, np.float32)] * 2)


@pytest.mark.parametrize("kwargs, match", [
    ({"gamma": 1.5}, "gamma"), ({"lambd": -0.1}, "lambd"), ({"update_interval": 0}, "update_interval"),
    ({"minibatch_size": 2.5}, "minibatch_size"), ({"epochs": 0}, "epochs"),
    ({"clip_eps": 0}, "clip_eps"), ({"clip_eps_vf": -1}, "clip_eps_vf"),
    ({"max_grad_norm": 0}, "max_grad_norm")])
def test_bad_hyperparameters_are_refused(kwargs, match):
    model = discrete_model()
    with pytest.raises(ValueError, match=rf"PPO: {match} must be"):
        PPO(model, optimizers.Adam().setup(model), **kwargs)


def test_recurrent_needs_a_recurrent_model():  # recurrent training: test_ppo_recurrent.py
    model = discrete_model()
    with pytest.raises(ValueError, match="PPO: recurrent=True needs a recurrent model"):
        PPO(model, optimizers.Adam().setup(model), recurrent=True)


def test_models_of_the_wrong_form_are_refused():
    policy_only = kusari.Sequential(nn.MLP(2, 2, []), policies.SoftmaxCategoricalHead())
    agent = PPO(policy_only, optimizers.Adam().setup(policy_only))
    with pytest.raises(TypeError, match=r"PPO: the model must return \(action distribution, value\)"):
        agent.act(np.zeros(2, np.float32))
    flat_value = nn.Branched(kusari.Sequential(nn.MLP(2, 2, []), policies.SoftmaxCategoricalHead()),
                             kusari.Sequential(nn.MLP(2, 1, []), F.flatten))
    agent = PPO(flat_value, optimizers.Adam().setup(flat_value))
    with pytest.raises(ValueError, match=r"PPO.*value must have shape \(1, 1\).*\(1,\)"):
        agent.act(np.zeros(2, np.float32))


def test_max_grad_norm_bounds_the_step():
    set_random_seed(0)
    model = discrete_model()
    start = params(model)
    agent = PPO(model, optimizers.SGD(lr=1.0).setup(model), update_interval=4, minibatch_size=4,
                epochs=1, max_grad_norm=1e-3)
    run(agent, Bandit(), 4)
    step = np.sqrt(sum(((params(model)[n] - start[n]) ** 2).sum() for n in start))
    assert 0 < step <= 1e-3 * (1 + 1e-5)


def test_cartpole_smoke():
    set_random_seed(0)
    env = gym.make("CartPole-v1")
    model = discrete_model(obs_size=4, hidden=(32,))
    agent = PPO(model, optimizers.Adam(alpha=3e-4).setup(model), update_interval=128,
                minibatch_size=32, epochs=2)
    run(agent, env, 300)
    stats = dict(agent.get_statistics())
    assert stats["n_updates"] == 16
    assert all(np.isfinite(v) for v in stats.values())
