"""kusari.rl.agents.td3: TD3's update arithmetic, learning a contextual bandit, save/load, eval mode, bad input."""
import gymnasium
import kusari
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, nn, policies, replay_buffers, utils
from kusari.rl.agents.td3 import TD3, default_target_policy_smoothing_func
from rl_continuous_control import Bandit, linear_critic, params, run, output_layer

STAT_NAMES = ["average_q1", "average_q2", "average_q_func1_loss", "average_q_func2_loss",
              "average_policy_loss", "policy_n_updates", "q_func_n_updates"]


def linear_policy(obs_size, action_size):
    return kusari.Sequential(nn.MLP(obs_size, action_size, []), policies.DeterministicHead())


def make_agent(seed=0, hidden=(), replay_start_size=4, capacity=1000, lr=1e-2, **kwargs):
    utils.set_random_seed(seed)
    policy = kusari.Sequential(nn.MLP(2, 1, list(hidden)), nn.BoundByTanh(-1.0, 1.0),
                               policies.DeterministicHead())
    q1, q2 = (kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(3, 1, list(hidden)))
              for _ in range(2))
    kwargs.setdefault("minibatch_size", 4)
    return TD3(policy, q1, q2, optimizers.Adam(alpha=lr).setup(policy),
               optimizers.Adam(alpha=lr).setup(q1), optimizers.Adam(alpha=lr).setup(q2),
               replay_buffers.ReplayBuffer(capacity), 0.9, explorers.AdditiveGaussian(0.3, -1, 1),
               replay_start_size=replay_start_size, **kwargs)


def test_one_update_matches_numpy():
    rng = numpy.random.RandomState(1)
    obs_size, action_size, batch, gamma, lr, tau = 3, 2, 5, 0.9, 0.1, 0.25
    utils.set_random_seed(0)
    policy = linear_policy(obs_size, action_size)
    q1, q2 = linear_critic(obs_size, action_size), linear_critic(obs_size, action_size)
    for link in (policy, q1, q2):
        for p in link.params():
            p.array[...] = rng.uniform(-1, 1, p.shape)
    agent = TD3(policy, q1, q2, optimizers.SGD(lr=lr).setup(policy), optimizers.SGD(lr=lr).setup(q1),
                optimizers.SGD(lr=lr).setup(q2), replay_buffers.ReplayBuffer(10), gamma,
                explorers.Greedy(), replay_start_size=batch, minibatch_size=batch,
                soft_update_tau=tau, policy_update_delay=1,
                target_policy_smoothing_func=lambda a: numpy.clip(a + 0.25, -1, 1))
    s = rng.randn(batch, obs_size).astype(numpy.float32)
    a = rng.uniform(-1, 1, (batch, action_size)).astype(numpy.float32)
    r = rng.randn(batch).astype(numpy.float32)
    s2 = rng.randn(batch, obs_size).astype(numpy.float32)
    done = numpy.array([0, 1, 0, 0, 1], numpy.float32)
    experiences = [[{"state": s[i], "action": a[i], "reward": r[i], "next_state": s2[i], "next_action": None,
                         "is_state_terminal": bool(done[i])}] for i in range(batch)]

    (Wp, bp), (W1, b1), (W2, b2) = output_layer(policy), output_layer(q1), output_layer(q2)
    a2 = numpy.clip(s2 @ Wp.T + bp + 0.25, -1, 1)
    sa2 = numpy.concatenate([s2, a2], 1)
    y = r + gamma * (1 - done) * numpy.minimum(sa2 @ W1.T + b1, sa2 @ W2.T + b2)[:, 0]
    sa = numpy.concatenate([s, a], 1)
    new, losses, predictions = [], [], []
    for W, b in ((W1, b1), (W2, b2)):
        q = (sa @ W.T + b)[:, 0]
        predictions.append(q.mean())
        losses.append(numpy.mean((q - y) ** 2))
        new.append((W - lr * (2 / batch) * (q - y) @ sa, b - lr * (2 / batch) * (q - y).sum(keepdims=True)))
    policy_loss = -((numpy.concatenate([s, s @ Wp.T + bp], 1) @ new[0][0].T + new[0][1])[:, 0]).mean()
    dq_da = new[0][0][0, obs_size:]  # the policy follows q_func1 only
    Wp_new, bp_new = Wp + lr * numpy.outer(dq_da, s.mean(0)), bp + lr * dq_da

    agent.update(experiences)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose([stats["average_q_func1_loss"], stats["average_q_func2_loss"]],
                                  losses, rtol=1e-5)
    numpy.testing.assert_allclose([stats["average_q1"], stats["average_q2"]], predictions, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_policy_loss"], policy_loss, rtol=1e-5)
    for link, (W, b) in ((q1, new[0]), (q2, new[1]), (policy, (Wp_new, bp_new))):
        numpy.testing.assert_allclose(output_layer(link)[0], W, rtol=1e-5, atol=1e-6)
        numpy.testing.assert_allclose(output_layer(link)[1], b, rtol=1e-5, atol=1e-6)
    # Polyak averaging of the targets after the policy step
    for target, old, now in ((agent.target_policy, (Wp, bp), (Wp_new, bp_new)),
                             (agent.target_q_func1, (W1, b1), new[0]),
                             (agent.target_q_func2, (W2, b2), new[1])):
        for got, o, n in zip(output_layer(target), old, now):
            numpy.testing.assert_allclose(got, (1 - tau) * o + tau * n, rtol=1e-5, atol=1e-6)
    assert (stats["policy_n_updates"], stats["q_func_n_updates"]) == (1, 1)


def test_default_target_policy_smoothing_func():
    action = numpy.array([[0.9, -0.2], [0.0, -0.95]], numpy.float32)
    numpy.random.seed(0)
    noisy = default_target_policy_smoothing_func(action)
    numpy.random.seed(0)
    noise = numpy.clip(0.2 * numpy.random.standard_normal(action.shape), -0.5, 0.5)
    numpy.testing.assert_allclose(noisy, numpy.clip(action + noise, -1, 1), rtol=1e-6)
    assert noisy.dtype == numpy.float32 and not numpy.array_equal(noisy, action)


def test_policy_update_is_delayed():
    agent = make_agent(policy_update_delay=3, replay_start_size=4, minibatch_size=4)
    policy_before = params(agent.policy)
    run(agent, Bandit(), 5)  # two critic updates
    assert (agent.q_func_n_updates, agent.policy_n_updates) == (2, 0)
    for name, value in params(agent.policy).items():
        numpy.testing.assert_array_equal(value, policy_before[name])
    run(agent, Bandit(), 1)
    assert (agent.q_func_n_updates, agent.policy_n_updates) == (3, 1)


def test_learns_contextual_bandit():
    agent = make_agent(hidden=(32,), replay_start_size=64, minibatch_size=64, soft_update_tau=0.1)
    run(agent, Bandit(), 600)
    with agent.eval_mode():
        actions = [float(agent.act(numpy.eye(2, dtype=numpy.float32)[c])[0]) for c in (0, 1)]
    numpy.testing.assert_allclose(actions, Bandit.BEST, atol=0.1)
    s = numpy.eye(2, dtype=numpy.float32)[[0, 0, 1, 1]]
    a = numpy.array([[0.5], [0.0], [-0.5], [0.0]], numpy.float32)
    with kusari.no_backprop_mode():
        q = agent.q_func1((s, a)).array[:, 0]
    numpy.testing.assert_allclose(q, [0, -0.25, 0, -0.25], atol=0.1)


def test_seeded_runs_are_identical():
    agents = []
    for _ in range(2):
        agents.append(make_agent(seed=3, hidden=(8,)))  # seeds the global generators
        run(agents[-1], Bandit(), 40, seed=5)
    assert agents[0].policy_n_updates > 0
    for link in ("policy", "q_func1", "q_func2", "target_policy", "target_q_func1", "target_q_func2"):
        first, second = params(getattr(agents[0], link)), params(getattr(agents[1], link))
        for name in first:
            numpy.testing.assert_array_equal(first[name], second[name])


def test_save_load_restores_actions_and_counters(tmp_path):
    agent = make_agent(hidden=(8,))
    run(agent, Bandit(), 30)
    agent.save(str(tmp_path / "agent"))
    other = make_agent(seed=7, hidden=(8,))
    other.load(str(tmp_path / "agent"))
    obs = [numpy.random.RandomState(i).rand(2).astype(numpy.float32) for i in range(4)]
    with agent.eval_mode(), other.eval_mode():
        numpy.testing.assert_array_equal(agent.batch_act(obs), other.batch_act(obs))
    counters = ("t", "q_func_n_updates", "policy_n_updates")
    assert [getattr(other, c) for c in counters] == [getattr(agent, c) for c in counters] == [30, 27, 13]
    for link in ("target_policy", "target_q_func2"):
        for name, p in getattr(agent, link).namedparams():
            numpy.testing.assert_array_equal(dict(getattr(other, link).namedparams())[name].array, p.array)
    assert other.q_func2_optimizer.t == agent.q_func2_optimizer.t == 27
    assert [n for n, _ in other.get_statistics()] == [n for n, _ in agent.get_statistics()] == STAT_NAMES


def test_eval_mode_stores_nothing_and_counts_nothing():
    agent = make_agent()
    run(agent, Bandit(), 10)
    before = (agent.t, agent.q_func_n_updates, agent.policy_n_updates, len(agent.replay_buffer))
    with agent.eval_mode():
        run(agent, Bandit(), 10)
        obs = numpy.array([1, 0], numpy.float32)
        assert numpy.array_equal(agent.act(obs), agent.act(obs))  # no exploration noise
    assert (agent.t, agent.q_func_n_updates, agent.policy_n_updates, len(agent.replay_buffer)) == before


def test_max_grad_norm_clips_each_network():
    agent = make_agent(max_grad_norm=1e-3)

    def grad_norm(link):
        return numpy.sqrt(sum(float((p.grad ** 2).sum()) for p in link.params()))

    run(agent, Bandit(), 4)  # a critic update only
    assert grad_norm(agent.q_func1) == pytest.approx(1e-3, rel=1e-4)
    assert grad_norm(agent.q_func2) == pytest.approx(1e-3, rel=1e-4)
    run(agent, Bandit(), 1)  # and a policy update
    assert grad_norm(agent.policy) == pytest.approx(1e-3, rel=1e-4)


def test_bad_input():
    with pytest.raises(ValueError, match=r"TD3: replay_start_size=2000 exceeds .*capacity=1000"):
        make_agent(replay_start_size=2000, capacity=1000)
    with pytest.raises(ValueError, match="TD3: policy_update_delay"):
        make_agent(policy_update_delay=0)
    with pytest.raises(ValueError, match="TD3: soft_update_tau"):
        make_agent(soft_update_tau=0)
    utils.set_random_seed(0)
    policy = kusari.Sequential(nn.MLP(2, 3, []), policies.SoftmaxCategoricalHead())
    q1, q2 = linear_critic(2, 1), linear_critic(2, 1)
    agent = TD3(policy, q1, q2, optimizers.Adam().setup(policy), optimizers.Adam().setup(q1),
                optimizers.Adam().setup(q2), replay_buffers.ReplayBuffer(10), 0.9,
                explorers.Greedy(), replay_start_size=4, minibatch_size=4)
    with pytest.raises(TypeError, match="TD3: continuous actions"):
        agent.act(numpy.zeros(2, numpy.float32))
    agent = make_agent()
    agent.act(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match=r"TD3.batch_act: .*shape \(2, 1\)"):
        agent.act(numpy.zeros((2, 1), numpy.float32))


def test_pendulum_smoke():
    utils.set_random_seed(0)
    env = gymnasium.make("Pendulum-v1")
    policy = kusari.Sequential(nn.MLP(3, 1, [32]), nn.BoundByTanh(-1.0, 1.0),
                               policies.DeterministicHead())
    q1, q2 = (kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(4, 1, [32])) for _ in range(2))
    agent = TD3(policy, q1, q2, optimizers.Adam().setup(policy), optimizers.Adam().setup(q1),
                optimizers.Adam().setup(q2), replay_buffers.ReplayBuffer(10 ** 4), 0.99,
                explorers.AdditiveGaussian(0.1, -1, 1), replay_start_size=64, minibatch_size=32,
                burnin_action_func=lambda: env.action_space.sample() / 2)
    obs, _ = env.reset(seed=0)
    env.action_space.seed(0)
    for _ in range(250):
        action = agent.act(obs)
        assert action.shape == (1,) and action.dtype == numpy.float32
        obs, reward, terminated, truncated, _ = env.step(2 * action)
        agent.observe(obs, reward, terminated, truncated)
    stats = dict(agent.get_statistics())
    assert stats["q_func_n_updates"] == 250 - 64 + 1
    assert stats["policy_n_updates"] == stats["q_func_n_updates"] // 2
    assert numpy.isfinite(stats["average_q_func1_loss"])
