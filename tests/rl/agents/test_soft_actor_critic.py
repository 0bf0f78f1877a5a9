"""kusari.rl.agents.soft_actor_critic: SAC's update arithmetic (critics, policy, temperature), learning a
contextual bandit, save/load, eval mode, bad input."""
import math

import gymnasium
import kusari
import numpy
import pytest
from kusari import optimizers
from kusari.rl import nn, policies, replay_buffers, utils
from kusari.rl.agents.soft_actor_critic import SoftActorCritic, TemperatureHolder
from rl_continuous_control import Bandit, linear_critic, params, run, output_layer

STAT_NAMES = ["average_q1", "average_q2", "average_q_func1_loss", "average_q_func2_loss",
              "n_updates", "average_entropy", "temperature"]


def linear_policy(obs_size, action_size):
    return kusari.Sequential(nn.MLP(obs_size, 2 * action_size, []),
                             policies.SquashedDiagonalGaussianHead())


def make_agent(seed=0, hidden=(), replay_start_size=4, capacity=1000, lr=1e-2, **kwargs):
    utils.set_random_seed(seed)
    policy = kusari.Sequential(nn.MLP(2, 2, list(hidden)), policies.SquashedDiagonalGaussianHead())
    q1, q2 = (kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(3, 1, list(hidden)))
              for _ in range(2))
    kwargs.setdefault("minibatch_size", 4)
    kwargs.setdefault("entropy_target", -1.0)
    return SoftActorCritic(policy, q1, q2, optimizers.Adam(alpha=lr).setup(policy),
                           optimizers.Adam(alpha=lr).setup(q1), optimizers.Adam(alpha=lr).setup(q2),
                           replay_buffers.ReplayBuffer(capacity), 0.9,
                           replay_start_size=replay_start_size, **kwargs)


def squashed_gaussian(W, b, s, eps, n):
    """NumPy: (action, log-density, mean, log-scale) of tanh(mean + exp(log_scale) * eps)."""
    out = s @ W.T + b
    mean, log_scale = out[:, :n], out[:, n:]
    u = mean + numpy.exp(log_scale) * eps
    log_prob = (-0.5 * eps ** 2 - log_scale - 0.5 * math.log(2 * math.pi)
                - numpy.log1p(-numpy.tanh(u) ** 2)).sum(1)
    return numpy.tanh(u), log_prob, mean, log_scale


def test_one_update_matches_numpy():
    rng = numpy.random.RandomState(1)
    obs_size, n, batch, gamma, lr, tau, temp_lr = 3, 2, 5, 0.9, 0.1, 0.25, 0.05
    alpha, entropy_target = 0.3, -2.0
    utils.set_random_seed(0)
    policy = linear_policy(obs_size, n)
    q1, q2 = linear_critic(obs_size, n), linear_critic(obs_size, n)
    for link, scale in ((policy, 0.3), (q1, 1), (q2, 1)):
        for p in link.params():
            p.array[...] = rng.uniform(-scale, scale, p.shape)
    agent = SoftActorCritic(policy, q1, q2, optimizers.SGD(lr=lr).setup(policy),
                            optimizers.SGD(lr=lr).setup(q1), optimizers.SGD(lr=lr).setup(q2),
                            replay_buffers.ReplayBuffer(10), gamma, replay_start_size=batch,
                            minibatch_size=batch, soft_update_tau=tau, initial_temperature=alpha,
                            entropy_target=entropy_target, temperature_optimizer_lr=temp_lr)
    s = rng.randn(batch, obs_size).astype(numpy.float32)
    a = rng.uniform(-1, 1, (batch, n)).astype(numpy.float32)
    r = rng.randn(batch).astype(numpy.float32)
    s2 = rng.randn(batch, obs_size).astype(numpy.float32)
    done = numpy.array([0, 1, 0, 0, 1], numpy.float32)
    experiences = [[{"state": s[i], "action": a[i], "reward": r[i], "next_state": s2[i], "next_action": None,
                         "is_state_terminal": bool(done[i])}] for i in range(batch)]
    numpy.random.seed(42)  # the update's two draws: the next actions, then the policy's actions
    eps_next = numpy.random.standard_normal((batch, n)).astype(numpy.float32)
    eps = numpy.random.standard_normal((batch, n)).astype(numpy.float32)

    (Wp, bp), (W1, b1), (W2, b2) = output_layer(policy), output_layer(q1), output_layer(q2)
    # critics, towards the soft value of the next state (target critics = critics at construction)
    a2, log_prob2, _, _ = squashed_gaussian(Wp, bp, s2, eps_next, n)
    sa2 = numpy.concatenate([s2, a2], 1)
    soft_v = numpy.minimum(sa2 @ W1.T + b1, sa2 @ W2.T + b2)[:, 0] - alpha * log_prob2
    y = r + gamma * (1 - done) * soft_v
    sa = numpy.concatenate([s, a], 1)
    new, losses = [], []
    for W, b in ((W1, b1), (W2, b2)):
        td = (sa @ W.T + b)[:, 0] - y
        losses.append(0.5 * numpy.mean(td ** 2))
        new.append((W - lr * td @ sa / batch, b - lr * td.sum(keepdims=True) / batch))
    # policy, through the updated critics' smaller value
    act, log_prob, _mean, log_scale = squashed_gaussian(Wp, bp, s, eps, n)
    sa_pi = numpy.concatenate([s, act], 1)
    q_pi = numpy.concatenate([sa_pi @ W.T + b for W, b in new], 1)
    chosen = numpy.argmin(q_pi, 1)
    dq_da = numpy.stack([new[k][0][0, obs_size:] for k in chosen])
    scale_eps = numpy.exp(log_scale) * eps
    d_mean = alpha * 2 * act - dq_da * (1 - act ** 2)
    d_log_scale = alpha * (-1 + 2 * act * scale_eps) - dq_da * (1 - act ** 2) * scale_eps
    g = numpy.concatenate([d_mean, d_log_scale], 1) / batch
    Wp_new, bp_new = Wp - lr * g.T @ s, bp - lr * g.sum(0)
    # temperature: Adam's first step on -temperature * mean(log_prob + target)
    g_t = -alpha * numpy.mean(log_prob + entropy_target)
    alpha_t = temp_lr * math.sqrt(1 - 0.999) / (1 - 0.9)
    log_t_new = math.log(alpha) - alpha_t * (0.1 * g_t) / (math.sqrt(0.001 * g_t ** 2) + 1e-8)

    numpy.random.seed(42)
    agent.update(experiences)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose([stats["average_q_func1_loss"], stats["average_q_func2_loss"]],
                                  losses, rtol=1e-4)
    for link, (W, b) in ((q1, new[0]), (q2, new[1]), (policy, (Wp_new, bp_new))):
        numpy.testing.assert_allclose(output_layer(link)[0], W, rtol=1e-4, atol=1e-6)
        numpy.testing.assert_allclose(output_layer(link)[1], b, rtol=1e-4, atol=1e-6)
    for target, old, now in ((agent.target_q_func1, (W1, b1), new[0]),
                             (agent.target_q_func2, (W2, b2), new[1])):
        for got, o, nw in zip(output_layer(target), old, now):
            numpy.testing.assert_allclose(got, (1 - tau) * o + tau * nw, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(stats["average_entropy"], -log_prob.mean(), rtol=1e-4)
    numpy.testing.assert_allclose(stats["temperature"], math.exp(log_t_new), rtol=1e-5)
    # Adam's first step sees only the gradient's sign: its value is checked on its own
    numpy.testing.assert_allclose(agent.temperature_holder.log_temperature.grad, g_t, rtol=1e-5)
    assert stats["n_updates"] == 1


def test_fixed_temperature():
    agent = make_agent(entropy_target=None, initial_temperature=0.2)
    assert agent.temperature_holder is None and agent.temperature_optimizer is None
    run(agent, Bandit(), 8)
    assert dict(agent.get_statistics())["temperature"] == 0.2
    holder = TemperatureHolder(math.log(0.2))
    assert holder.log_temperature.dtype == numpy.float32
    numpy.testing.assert_allclose(holder().array, 0.2, rtol=1e-6)


def test_learns_contextual_bandit():
    agent = make_agent(hidden=(32,), replay_start_size=64, minibatch_size=64, soft_update_tau=0.1,
                       initial_temperature=0.1)
    run(agent, Bandit(), 600)
    with agent.eval_mode():
        actions = [float(agent.act(numpy.eye(2, dtype=numpy.float32)[c])[0]) for c in (0, 1)]
    numpy.testing.assert_allclose(actions, Bandit.BEST, atol=0.1)
    s = numpy.eye(2, dtype=numpy.float32)[[0, 0, 1, 1]]
    a = numpy.array([[0.5], [0.0], [-0.5], [0.0]], numpy.float32)
    with kusari.no_backprop_mode():
        q = agent.q_func1((s, a)).array[:, 0]
    numpy.testing.assert_allclose(q, [0, -0.25, 0, -0.25], atol=0.1)
    assert dict(agent.get_statistics())["temperature"] < 0.1  # tuned down towards the target


def test_seeded_runs_are_identical():
    agents = []
    for _ in range(2):
        agents.append(make_agent(seed=3, hidden=(8,)))  # seeds the global generators
        run(agents[-1], Bandit(), 40, seed=5)
    assert agents[0].n_policy_updates > 0
    for link in ("policy", "q_func1", "q_func2", "target_q_func1", "target_q_func2",
                 "temperature_holder"):
        first, second = params(getattr(agents[0], link)), params(getattr(agents[1], link))
        for name in first:
            numpy.testing.assert_array_equal(first[name], second[name])


def test_save_load_restores_actions_temperature_and_counters(tmp_path):
    agent = make_agent(hidden=(8,))
    run(agent, Bandit(), 30)
    agent.save(str(tmp_path / "agent"))
    other = make_agent(seed=7, hidden=(8,))
    other.load(str(tmp_path / "agent"))
    obs = [numpy.random.RandomState(i).rand(2).astype(numpy.float32) for i in range(4)]
    with agent.eval_mode(), other.eval_mode():
        numpy.testing.assert_array_equal(agent.batch_act(obs), other.batch_act(obs))
    assert (other.t, other.n_policy_updates) == (agent.t, agent.n_policy_updates) == (30, 27)
    assert other.temperature == agent.temperature != 1.0
    assert other.temperature_optimizer.t == agent.temperature_optimizer.t == 27
    for name, p in agent.target_q_func1.namedparams():
        numpy.testing.assert_array_equal(dict(other.target_q_func1.namedparams())[name].array, p.array)
    assert [n for n, _ in other.get_statistics()] == [n for n, _ in agent.get_statistics()] == STAT_NAMES


def test_eval_mode_acts_deterministically_and_stores_nothing():
    agent = make_agent()
    run(agent, Bandit(), 10)
    before = (agent.t, agent.n_policy_updates, len(agent.replay_buffer), agent.temperature)
    obs = numpy.array([1, 0], numpy.float32)
    with agent.eval_mode():
        run(agent, Bandit(), 10)
        assert numpy.array_equal(agent.act(obs), agent.act(obs))
    assert (agent.t, agent.n_policy_updates, len(agent.replay_buffer), agent.temperature) == before
    assert not numpy.array_equal(agent.act(obs), agent.act(obs))  # training actions are draws
    stochastic = make_agent(act_deterministically=False)
    with stochastic.eval_mode():
        assert not numpy.array_equal(stochastic.act(obs), stochastic.act(obs))


def test_bad_input():
    with pytest.raises(ValueError, match=r"SoftActorCritic: replay_start_size=2000 exceeds .*capacity=1000"):
        make_agent(replay_start_size=2000, capacity=1000)
    with pytest.raises(ValueError, match="SoftActorCritic: initial_temperature"):
        make_agent(initial_temperature=0.0)
    with pytest.raises(ValueError, match="SoftActorCritic: gamma"):
        SoftActorCritic(*_parts(), replay_buffers.ReplayBuffer(10), 1.5, replay_start_size=4,
                        minibatch_size=4)
    utils.set_random_seed(0)
    policy = kusari.Sequential(nn.MLP(2, 3, []), policies.SoftmaxCategoricalHead())
    q1, q2 = linear_critic(2, 1), linear_critic(2, 1)
    agent = SoftActorCritic(policy, q1, q2, optimizers.Adam().setup(policy),
                            optimizers.Adam().setup(q1), optimizers.Adam().setup(q2),
                            replay_buffers.ReplayBuffer(10), 0.9, replay_start_size=4,
                            minibatch_size=4)
    with pytest.raises(TypeError, match="SoftActorCritic: continuous actions"):
        agent.act(numpy.zeros(2, numpy.float32))
    agent = make_agent()
    agent.act(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match=r"SoftActorCritic.batch_act: .*dtype float64"):
        agent.act(numpy.zeros(2, numpy.float64))


def _parts():
    policy, q1, q2 = linear_policy(2, 1), linear_critic(2, 1), linear_critic(2, 1)
    return (policy, q1, q2, optimizers.Adam().setup(policy), optimizers.Adam().setup(q1),
            optimizers.Adam().setup(q2))


def test_pendulum_smoke():
    utils.set_random_seed(0)
    env = gymnasium.make("Pendulum-v1")
    policy = kusari.Sequential(nn.MLP(3, 2, [32]), policies.SquashedDiagonalGaussianHead())
    q1, q2 = (kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(4, 1, [32])) for _ in range(2))
    agent = SoftActorCritic(policy, q1, q2, optimizers.Adam().setup(policy),
                            optimizers.Adam().setup(q1), optimizers.Adam().setup(q2),
                            replay_buffers.ReplayBuffer(10 ** 4), 0.99, replay_start_size=64,
                            minibatch_size=32, entropy_target=-1.0)
    obs, _ = env.reset(seed=0)
    for _ in range(250):
        action = agent.act(obs)
        assert action.shape == (1,) and action.dtype == numpy.float32 and abs(action[0]) <= 1
        obs, reward, terminated, truncated, _ = env.step(2 * action)
        agent.observe(obs, reward, terminated, truncated)
    stats = dict(agent.get_statistics())
    assert stats["n_updates"] == 250 - 64 + 1
    assert all(numpy.isfinite(v) for v in stats.values())
