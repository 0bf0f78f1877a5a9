"""kusari.rl.agents.ddpg: DDPG's update arithmetic, learning a contextual bandit, save/load, eval mode, bad input."""
import re

import gymnasium
import kusari
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, nn, policies, replay_buffers, utils
from kusari.rl.agents.ddpg import DDPG
from rl_continuous_control import Bandit, linear_critic, params, run

STAT_NAMES = ["average_q", "average_actor_loss", "average_critic_loss", "n_updates"]


def linear_policy(obs_size, action_size):
    return kusari.Sequential(nn.MLP(obs_size, action_size, []), policies.DeterministicHead())


def make_agent(seed=0, hidden=(), replay_start_size=4, capacity=1000, lr=1e-2, **kwargs):
    utils.set_random_seed(seed)
    policy = kusari.Sequential(nn.MLP(2, 1, list(hidden)), nn.BoundByTanh(-1.0, 1.0),
                               policies.DeterministicHead())
    q_func = kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(3, 1, list(hidden)))
    kwargs.setdefault("minibatch_size", 4)
    return DDPG(policy, q_func, optimizers.Adam(alpha=lr).setup(policy),
                optimizers.Adam(alpha=lr).setup(q_func), replay_buffers.ReplayBuffer(capacity),
                0.9, explorers.AdditiveGaussian(0.3, -1, 1), replay_start_size=replay_start_size,
                **kwargs)


def test_one_update_matches_numpy():
    rng = numpy.random.RandomState(1)
    obs_size, action_size, batch, gamma, lr = 3, 2, 5, 0.9, 0.1
    utils.set_random_seed(0)
    policy, q_func = linear_policy(obs_size, action_size), linear_critic(obs_size, action_size)
    for link in (policy, q_func):  # nonzero biases, so a wrong bias gradient shows
        for p in link.params():
            p.array[...] = rng.uniform(-1, 1, p.shape)
    agent = DDPG(policy, q_func, optimizers.SGD(lr=lr).setup(policy),
                 optimizers.SGD(lr=lr).setup(q_func), replay_buffers.ReplayBuffer(10), gamma,
                 explorers.Greedy(), replay_start_size=batch, minibatch_size=batch)
    s = rng.randn(batch, obs_size).astype(numpy.float32)
    a = rng.uniform(-1, 1, (batch, action_size)).astype(numpy.float32)
    r = rng.randn(batch).astype(numpy.float32)
    s2 = rng.randn(batch, obs_size).astype(numpy.float32)
    done = numpy.array([0, 1, 0, 0, 1], numpy.float32)
    experiences = [[{"state": s[i], "action": a[i], "reward": r[i], "next_state": s2[i], "next_action": None,
                         "is_state_terminal": bool(done[i])}] for i in range(batch)]

    Wp, bp = (policy[0].output.W.array.astype(numpy.float64), policy[0].output.b.array.astype(numpy.float64))
    Wq, bq = (q_func[1].output.W.array.astype(numpy.float64), q_func[1].output.b.array.astype(numpy.float64))
    # critic: target networks equal the networks at construction
    a2 = s2 @ Wp.T + bp
    y = r + gamma * (1 - done) * (numpy.concatenate([s2, a2], 1) @ Wq.T + bq)[:, 0]
    sa = numpy.concatenate([s, a], 1)
    td = (sa @ Wq.T + bq)[:, 0] - y
    critic_loss = numpy.mean(td ** 2)
    Wq_new = Wq - lr * (2 / batch) * td @ sa
    bq_new = bq - lr * (2 / batch) * td.sum(keepdims=True)
    # actor: through the updated critic, whose action columns give dQ/da
    a_pi = s @ Wp.T + bp
    q_pi = (numpy.concatenate([s, a_pi], 1) @ Wq_new.T + bq_new)[:, 0]
    actor_loss = -q_pi.mean()
    dq_da = Wq_new[0, obs_size:]
    Wp_new = Wp + lr * numpy.outer(dq_da, s.mean(0))
    bp_new = bp + lr * dq_da

    agent.update(experiences)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats["average_critic_loss"], critic_loss, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_actor_loss"], actor_loss, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_q"], q_pi.mean(), rtol=1e-5)
    numpy.testing.assert_allclose(q_func[1].output.W.array, Wq_new, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(q_func[1].output.b.array, bq_new, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(policy[0].output.W.array, Wp_new, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(policy[0].output.b.array, bp_new, rtol=1e-5, atol=1e-6)
    assert stats["n_updates"] == 1
    assert policy[0].output.W.dtype == numpy.float32
    # hard targets stay put until target_update_interval steps have passed
    numpy.testing.assert_array_equal(agent.target_policy[0].output.W.array, Wp.astype(numpy.float32))


def test_learns_contextual_bandit():
    agent = make_agent(hidden=(64,), lr=3e-3, replay_start_size=64, minibatch_size=64,
                       target_update_method="soft", target_update_interval=1, soft_update_tau=0.1)
    run(agent, Bandit(), 600)
    with agent.eval_mode():
        actions = [float(agent.act(numpy.eye(2, dtype=numpy.float32)[c])[0]) for c in (0, 1)]
    numpy.testing.assert_allclose(actions, Bandit.BEST, atol=0.1)
    # the critic has learned Q(s, a) = -(a - best)**2 near the optimum
    s = numpy.eye(2, dtype=numpy.float32)[[0, 0, 1, 1]]
    a = numpy.array([[0.5], [0.0], [-0.5], [0.0]], numpy.float32)
    with kusari.no_backprop_mode():
        q = agent.q_function((s, a)).array[:, 0]
    numpy.testing.assert_allclose(q, [0, -0.25, 0, -0.25], atol=0.1)


def test_seeded_runs_are_identical():
    agents = []
    for _ in range(2):
        agents.append(make_agent(seed=3, hidden=(8,)))  # seeds the global generators
        run(agents[-1], Bandit(), 40, seed=5)
    assert agents[0].n_updates > 0
    for link in ("policy", "q_function", "target_policy", "target_q_function"):
        first, second = params(getattr(agents[0], link)), params(getattr(agents[1], link))
        for name in first:
            numpy.testing.assert_array_equal(first[name], second[name])


def test_truncation_bootstraps_and_termination_does_not():
    agent = make_agent(replay_start_size=100)
    obs = numpy.zeros(2, numpy.float32)
    agent.observe(obs, 0.0, False, True)  # a reset before any act stores nothing
    assert len(agent.replay_buffer) == 0
    agent.act(obs)
    agent.observe(obs, 1.0, False, True)  # truncated
    agent.act(obs)
    agent.observe(obs, 2.0, True, False)  # terminated
    stored = [exp[0] for exp in agent.replay_buffer.memory]
    assert [(t["reward"], t["is_state_terminal"]) for t in stored] == [(1.0, False), (2.0, True)]
    assert agent.t == 3


def test_save_load_restores_actions_and_counters(tmp_path):
    agent = make_agent(hidden=(8,))
    run(agent, Bandit(), 30)
    agent.save(str(tmp_path / "agent"), save_replay_buffer=True)
    other = make_agent(seed=7, hidden=(8,))
    other.load(str(tmp_path / "agent"))
    obs = [numpy.random.RandomState(i).rand(2).astype(numpy.float32) for i in range(4)]
    with agent.eval_mode(), other.eval_mode():
        numpy.testing.assert_array_equal(agent.batch_act(obs), other.batch_act(obs))
    assert (other.t, other.n_updates) == (agent.t, agent.n_updates) == (30, 27)
    assert len(other.replay_buffer) == len(agent.replay_buffer)
    for name, p in agent.target_q_function.namedparams():
        numpy.testing.assert_array_equal(dict(other.target_q_function.namedparams())[name].array, p.array)
    assert [n for n, _ in other.get_statistics()] == [n for n, _ in agent.get_statistics()] == STAT_NAMES


def test_statistics_names_fixed_from_construction():
    agent = make_agent()
    assert [n for n, _ in agent.get_statistics()] == STAT_NAMES
    assert numpy.isnan(dict(agent.get_statistics())["average_q"])


def test_eval_mode_stores_nothing_and_counts_nothing():
    agent = make_agent()
    run(agent, Bandit(), 10)
    before = (agent.t, agent.n_updates, len(agent.replay_buffer), params(agent.policy))
    with agent.eval_mode():
        run(agent, Bandit(), 10)
        first = agent.act(numpy.array([1, 0], numpy.float32))
        assert numpy.array_equal(first, agent.act(numpy.array([1, 0], numpy.float32)))
    assert (agent.t, agent.n_updates, len(agent.replay_buffer)) == before[:3]
    for name, value in params(agent.policy).items():
        numpy.testing.assert_array_equal(value, before[3][name])
    assert agent.training


def test_hard_target_update_every_interval():
    agent = make_agent(target_update_interval=10)
    run(agent, Bandit(), 9)
    assert agent.n_updates > 0
    current = params(agent.q_function)
    assert any(not numpy.array_equal(current[n], p.array) for n, p in agent.target_q_function.namedparams())
    run(agent, Bandit(), 1)  # t = 10: copied (before this step's update, as in PFRL)
    for name, p in agent.target_q_function.namedparams():
        numpy.testing.assert_array_equal(p.array, current[name])


def test_learning_rate_is_read_at_every_update():
    agent = make_agent()
    run(agent, Bandit(), 10)
    agent.actor_optimizer.alpha = 0.0
    frozen = params(agent.policy)
    run(agent, Bandit(), 5)
    for name, value in params(agent.policy).items():
        numpy.testing.assert_array_equal(value, frozen[name])


def test_burnin_action_func_acts_until_the_first_update():
    agent = make_agent(replay_start_size=8, burnin_action_func=lambda: numpy.full(1, 0.75, numpy.float32))
    obs = numpy.array([1, 0], numpy.float32)
    for _ in range(8):
        assert agent.act(obs)[0] == 0.75
        agent.observe(obs, 0.0, True, False)
    assert agent.n_updates == 1
    assert agent.act(obs)[0] != 0.75


def test_bad_hyperparameters():
    with pytest.raises(ValueError, match=r"DDPG: replay_start_size=2000 exceeds .*capacity=1000"):
        make_agent(replay_start_size=2000, capacity=1000)
    with pytest.raises(ValueError, match=r"DDPG: replay_start_size=4 is below minibatch_size=8"):
        make_agent(replay_start_size=4, minibatch_size=8)
    with pytest.raises(ValueError, match="DDPG: target_update_method"):
        make_agent(target_update_method="polyak")
    with pytest.raises(NotImplementedError, match="recurrent"):
        make_agent(recurrent=True)
    policy, q_func = linear_policy(2, 1), linear_critic(2, 1)
    with pytest.raises(ValueError, match="DDPG: critic_optimizer .* q_func"):
        DDPG(policy, q_func, optimizers.Adam().setup(policy), optimizers.Adam().setup(policy),
             replay_buffers.ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=4,
             minibatch_size=4)


def test_discrete_policy_is_refused():
    utils.set_random_seed(0)
    policy = kusari.Sequential(nn.MLP(2, 3, []), policies.SoftmaxCategoricalHead())
    q_func = linear_critic(2, 1)
    agent = DDPG(policy, q_func, optimizers.Adam().setup(policy), optimizers.Adam().setup(q_func),
                 replay_buffers.ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=4,
                 minibatch_size=4)
    with pytest.raises(TypeError, match="DDPG: continuous actions .* int32"):
        agent.act(numpy.zeros(2, numpy.float32))
    discrete_burnin = make_agent(burnin_action_func=lambda: 1)
    with pytest.raises(TypeError, match="DDPG: .*burnin_action_func gave int"):
        discrete_burnin.act(numpy.zeros(2, numpy.float32))


def test_bad_observations():
    agent = make_agent()
    with pytest.raises(ValueError, match=r"DDPG.batch_act: observations of shape \(3,\) .* first layer "
                                         r"\S+ \(Linear\) takes 2 values") as info:
        agent.act(numpy.zeros(3, numpy.float32))
    assert re.match(r"DDPG: the policy cannot take .*\(1, 3\)", str(info.value.__cause__))
    agent = make_agent()
    agent.act(numpy.zeros(2, numpy.float32))
    with pytest.raises(ValueError, match=r"DDPG.batch_act: .*shape \(3,\) and dtype float32.*shape \(2,\)"):
        agent.act(numpy.zeros(3, numpy.float32))
    with pytest.raises(ValueError, match=r"DDPG.batch_observe: .*dtype float64.*float32"):
        agent.observe(numpy.zeros(2, numpy.float64), 0.0, False, False)


def test_pendulum_smoke():
    utils.set_random_seed(0)
    env = gymnasium.make("Pendulum-v1")
    policy = kusari.Sequential(nn.MLP(3, 1, [32]), nn.BoundByTanh(-1.0, 1.0),
                               policies.DeterministicHead())
    q_func = kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(4, 1, [32]))
    agent = DDPG(policy, q_func, optimizers.Adam().setup(policy), optimizers.Adam().setup(q_func),
                 replay_buffers.ReplayBuffer(10 ** 4), 0.99, explorers.AdditiveOU(),
                 replay_start_size=64, minibatch_size=32, target_update_method="soft",
                 target_update_interval=1)
    obs, _ = env.reset(seed=0)
    for _ in range(250):
        action = agent.act(obs)
        assert action.shape == (1,) and action.dtype == numpy.float32
        obs, reward, terminated, truncated, _ = env.step(2 * numpy.clip(action, -1, 1))
        agent.observe(obs, reward, terminated, truncated)
    stats = dict(agent.get_statistics())
    assert stats["n_updates"] == 250 - 64 + 1
    assert numpy.isfinite(stats["average_critic_loss"])
