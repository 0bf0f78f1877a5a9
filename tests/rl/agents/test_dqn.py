"""kusari.rl.agents.dqn: the update's arithmetic, learning a known MDP, save/load, eval mode, bad input.

Behaviour shared by the whole family (acting, storing, schedules, saving) is checked here for all
four classes; test_double_dqn.py and test_pal.py check their own targets.
"""
import gymnasium
import kusari
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.double_dqn import DoubleDQN
from kusari.rl.agents.double_pal import DoublePAL
from kusari.rl.agents.dqn import DQN
from kusari.rl.agents.pal import PAL
from kusari.rl.replay_buffers import PrioritizedReplayBuffer, ReplayBuffer
from kusari.rl.utils import set_random_seed, synchronize_parameters
from rl_continuous_control import run
from rl_discrete_chain import Q_STAR, learn_chain

FAMILY = [DQN, DoubleDQN, PAL, DoublePAL]
STAT_NAMES = ["average_q", "average_loss", "cumulative_steps", "n_updates", "rlen"]
W0 = numpy.array([[0.5, -1.0], [2.0, 0.25]], numpy.float32)
B0 = numpy.array([0.1, -0.2], numpy.float32)


def linear_q(w=W0, b=B0):
    """A tabular-enough Q-function: Q(s) = W s + b over 2 actions."""
    return q_functions.SingleModelStateQFunctionWithDiscreteAction(
        L.Linear(w.shape[1], w.shape[0], initialW=w.copy(), initial_bias=b.copy()))


def make_agent(cls=DQN, q=None, buffer=None, explorer=None, lr=0.1, **kwargs):
    q = linear_q() if q is None else q
    kwargs.setdefault("replay_start_size", 2)
    kwargs.setdefault("minibatch_size", 2)
    return cls(q, optimizers.SGD(lr=lr).setup(q), ReplayBuffer(100) if buffer is None else buffer,
               0.9, explorers.ConstantEpsilonGreedy(0.0, lambda: 0) if explorer is None else explorer,
               **kwargs)


def transition(s, a, r, s2, terminal=False, **extra):
    return dict(state=numpy.float32(s), action=a, reward=r, next_state=numpy.float32(s2),
                next_action=None, is_state_terminal=terminal, **extra)


def huber_grad(d):
    return numpy.clip(d, -1, 1)


# (a) one update against NumPy -------------------------------------------------------------
@pytest.mark.parametrize("clip_delta", [True, False])
@pytest.mark.parametrize("batch_accumulator", ["mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_update_matches_numpy(clip_delta, batch_accumulator, weighted):
    gamma, lr = 0.9, 0.1
    agent = make_agent(clip_delta=clip_delta, batch_accumulator=batch_accumulator, lr=lr)
    if weighted:
        agent.replay_buffer = PrioritizedReplayBuffer(100)
    weights = numpy.array([0.5, 1.0, 0.25], numpy.float32)
    # one 1-step experience, one terminal one, and a 2-step one (gamma**2 discount)
    experiences = [[transition([1, 0], 0, 1.0, [0, 1])],
                   [transition([0, 1], 1, -2.0, [1, 1], terminal=True)],
                   [transition([1, 1], 1, 0.5, [1, 0]), transition([1, 0], 0, 0.25, [2, 1])]]
    if weighted:
        for e, w in zip(experiences, weights):
            e[0]["weight"] = float(w)
        for _ in range(3):
            agent.replay_buffer.append(**transition([0, 0], 0, 0.0, [0, 0], terminal=True))
        agent.replay_buffer.sample(3)  # update_errors needs a sampled batch of 3
    errors = []
    agent.update(experiences, errors_out=errors)

    s = numpy.float32([[1, 0], [0, 1], [1, 1]])
    a = numpy.array([0, 1, 1])
    q = s @ W0.T + B0
    y = q[numpy.arange(3), a]
    next_q = numpy.float32([[0, 1], [1, 1], [2, 1]]) @ W0.T + B0
    t = numpy.array([1.0 + gamma * next_q[0].max(),
                     -2.0,
                     0.5 + gamma * 0.25 + gamma ** 2 * next_q[2].max()])
    d = y - t
    per_sample = numpy.where(numpy.abs(d) < 1, 0.5 * d ** 2, numpy.abs(d) - 0.5) if clip_delta else 0.5 * d ** 2
    g = huber_grad(d) if clip_delta else d
    w = weights if weighted else numpy.ones(3)
    scale = 1 / 3 if batch_accumulator == "mean" else 1
    loss = (per_sample * w).sum() * scale
    g = g * w * scale
    grad_w = numpy.zeros_like(W0, dtype=numpy.float64)
    grad_b = numpy.zeros(2)
    for i in range(3):
        grad_w[a[i]] += g[i] * s[i]
        grad_b[a[i]] += g[i]
    linear = agent.model.model
    numpy.testing.assert_allclose(dict(agent.get_statistics())["average_loss"], loss, rtol=1e-5)
    numpy.testing.assert_allclose(dict(agent.get_statistics())["average_q"], y.mean(), rtol=1e-5)
    numpy.testing.assert_allclose(linear.W.array, W0 - lr * grad_w, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(linear.b.array, B0 - lr * grad_b, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(errors, numpy.abs(d), rtol=1e-5)
    assert linear.W.dtype == numpy.float32
    # the target network is untouched by an update
    numpy.testing.assert_array_equal(agent.target_model.model.W.array, W0)


def test_prioritized_replay_gets_the_td_errors():
    buffer = PrioritizedReplayBuffer(100, alpha=1.0, eps=0.0, error_max=None)
    agent = make_agent(buffer=buffer)
    agent.replay_buffer.append(**transition([1, 0], 0, 10.0, [0, 1], terminal=True))
    agent.replay_buffer.append(**transition([0, 1], 1, 0.0, [0, 1], terminal=True))
    experiences = buffer.sample(2)
    agent.update(experiences)
    y = {0: (W0[0, 0] + B0[0]), 1: (W0[1, 1] + B0[1])}
    expected = sorted([abs(y[0] - 10.0), abs(y[1] - 0.0)])
    # with alpha=1 and eps=0 the priorities are the errors themselves
    numpy.testing.assert_allclose(sorted(buffer.memory.priorities()), expected, rtol=1e-5)


def test_static_replay_is_bit_identical_to_eager():
    def run(static):
        set_random_seed(1)
        agent = make_agent(q=q_functions.FCStateQFunctionWithDiscreteAction(3, 2, 8, 1),
                           buffer=ReplayBuffer(100, num_steps=2), minibatch_size=4, replay_start_size=4)
        with kusari.using_config("use_static_graph", static):
            for i in range(20):
                obs = numpy.random.randn(3).astype(numpy.float32)
                agent.act(obs)
                agent.observe(obs, float(i % 3), i % 7 == 6, False)
        return [p.array.copy() for p in agent.model.params()], agent.get_statistics()

    (static_params, static_stats), (eager_params, eager_stats) = run(True), run(False)
    assert static_stats == eager_stats
    for p, q in zip(static_params, eager_params):
        numpy.testing.assert_array_equal(p, q)


def test_max_grad_norm_clips_the_step():
    experiences = [[transition([1, 0], 0, 100.0, [0, 1], terminal=True)]]
    agent = make_agent(lr=1.0, max_grad_norm=0.01, clip_delta=False)
    agent.update(experiences)
    step = numpy.concatenate([(agent.model.model.W.array - W0).ravel(), agent.model.model.b.array - B0])
    numpy.testing.assert_allclose(numpy.linalg.norm(step), 0.01, rtol=1e-4)


# target networks --------------------------------------------------------------------------
def test_hard_target_update_follows_the_interval():
    agent = make_agent(target_update_interval=4, replay_start_size=100, minibatch_size=2)
    agent.model.model.W.array[...] = 7.0
    obs = numpy.float32([1, 0])
    for step in range(1, 5):
        agent.act(obs)
        agent.observe(obs, 0.0, False, False)
        synced = numpy.array_equal(agent.target_model.model.W.array, agent.model.model.W.array)
        assert synced == (step == 4)


def test_soft_target_update():
    src, dst = linear_q(W0 * 3, B0 * 3), linear_q()
    synchronize_parameters(src, dst, "soft", tau=0.25)
    numpy.testing.assert_allclose(dst.model.W.array, 0.75 * W0 + 0.25 * 3 * W0, rtol=1e-6)
    numpy.testing.assert_allclose(dst.model.b.array, 0.75 * B0 + 0.25 * 3 * B0, rtol=1e-6)
    assert dst.model.W.dtype == numpy.float32


def test_soft_method_is_used_by_the_agent():
    agent = make_agent(target_update_interval=1, target_update_method="soft", soft_update_tau=0.5,
                       replay_start_size=100, minibatch_size=2)
    agent.model.model.W.array[...] = 1.0
    obs = numpy.float32([1, 0])
    agent.act(obs)
    agent.observe(obs, 0.0, False, False)
    numpy.testing.assert_allclose(agent.target_model.model.W.array, 0.5 * W0 + 0.5, rtol=1e-6)


def test_target_is_a_copy():
    agent = make_agent()
    assert agent.target_model is not agent.model
    assert agent.target_model.model.W is not agent.model.model.W
    numpy.testing.assert_array_equal(agent.target_model.model.W.array, W0)


# storing and scheduling -------------------------------------------------------------------
def test_terminated_and_truncated_transitions():
    agent = make_agent(replay_start_size=50, minibatch_size=2)
    s = [numpy.float32([i, 1]) for i in range(5)]
    agent.act(s[0])
    agent.observe(s[1], 1.0, False, False)
    agent.act(s[1])
    agent.observe(s[2], 2.0, True, False)       # terminated: no bootstrap
    agent.observe(s[3], 0.0, False, True)       # reset without an act: nothing to store
    agent.act(s[3])
    agent.observe(s[4], 3.0, False, True)       # truncated: stored as non-terminal
    stored = sorted((e[0]["reward"], e[0]["is_state_terminal"]) for e in agent.replay_buffer.sample(3))
    assert stored == [(1.0, False), (2.0, True), (3.0, False)]
    assert agent.t == 4 and agent.cumulative_steps == 4


def test_batch_act_and_observe_keep_environments_apart():
    agent = make_agent(buffer=ReplayBuffer(100, num_steps=2), replay_start_size=50, minibatch_size=2)
    obs = [numpy.float32([0, 1]), numpy.float32([1, 0])]
    actions = agent.batch_act(obs)
    assert len(actions) == 2
    agent.batch_observe([numpy.float32([0, 2]), numpy.float32([2, 0])], [1.0, 10.0], [False, True],
                        [False, False])
    agent.batch_act([numpy.float32([0, 2]), numpy.float32([3, 0])])
    agent.batch_observe([numpy.float32([0, 3]), numpy.float32([4, 0])], [2.0, 20.0], [True, False],
                        [False, True])
    assert agent.t == 4
    experiences = agent.replay_buffer.sample(len(agent.replay_buffer))
    by_rewards = sorted(tuple(t["reward"] for t in e) for e in experiences)
    # env 0's two transitions form a 2-step window; env 1's episodes are separate
    assert by_rewards == [(1.0, 2.0), (2.0,), (10.0,), (20.0,)]


def test_updates_follow_replay_start_size_and_update_interval():
    agent = make_agent(replay_start_size=3, minibatch_size=2, update_interval=2, n_times_update=2,
                       target_update_interval=2)
    obs = numpy.float32([1, 0])
    n_updates = []
    for _ in range(8):
        agent.act(obs)
        agent.observe(obs, 1.0, False, False)
        n_updates.append(agent.optim_t)
    # buffer reaches 3 at t=3; updates (2 each) at t = 4, 6, 8
    assert n_updates == [0, 0, 0, 2, 2, 4, 4, 6]


def test_scheduled_learning_rate_is_read_at_each_update():
    agent = make_agent()
    experiences = [[transition([1, 0], 0, 5.0, [0, 1], terminal=True)]]
    agent.optimizer.lr = 0.0
    agent.update(experiences)
    numpy.testing.assert_array_equal(agent.model.model.W.array, W0)
    agent.optimizer.lr = 0.1
    agent.update(experiences)
    assert not numpy.array_equal(agent.model.model.W.array, W0)


# (d) eval mode -------------------------------------------------------------------------------
@pytest.mark.parametrize("cls", FAMILY)
def test_eval_mode_is_greedy_and_stores_nothing(cls):
    agent = make_agent(cls, explorer=explorers.ConstantEpsilonGreedy(1.0, lambda: 1),
                       replay_start_size=1, minibatch_size=1)
    obs = numpy.float32([1, -1])  # Q = [1.6, 1.55]: greedy is 0, the explorer always says 1
    assert agent.act(obs) == 1
    params = [p.array.copy() for p in agent.model.params()]
    with agent.eval_mode():
        assert agent.act(obs) == 0
        for _ in range(3):
            agent.observe(obs, 1.0, False, False)
            agent.observe(obs, 1.0, True, False)
    assert agent.t == 0 and len(agent.replay_buffer) == 0 and agent.optim_t == 0
    for p, q in zip(params, agent.model.params()):
        numpy.testing.assert_array_equal(p, q.array)
    assert agent.training


# (c) save and load ---------------------------------------------------------------------------
@pytest.mark.parametrize("cls", FAMILY)
def test_save_load_restores_everything(cls, tmp_path):
    set_random_seed(0)

    def build():
        q = q_functions.FCStateQFunctionWithDiscreteAction(3, 4, 8, 1)
        return cls(q, optimizers.Adam(1e-2).setup(q), ReplayBuffer(100), 0.9,
                   explorers.ConstantEpsilonGreedy(0.5, lambda: numpy.random.randint(4)),
                   replay_start_size=4, minibatch_size=4, target_update_interval=3)

    agent = build()
    observations = numpy.random.randn(30, 3).astype(numpy.float32)
    for i, obs in enumerate(observations):
        agent.act(obs)
        agent.observe(obs, float(i % 2), i % 9 == 8, False)
    agent.model.model.output.W.array[...] += 1  # make model and target differ
    agent.save(str(tmp_path / "agent"), save_replay_buffer=True)

    other = build()
    other.load(str(tmp_path / "agent"))
    assert (other.t, other.optim_t, other.cumulative_steps) == (agent.t, agent.optim_t, agent.cumulative_steps)
    assert other.optimizer.t == agent.optimizer.t
    for mine, theirs in ((agent.model, other.model), (agent.target_model, other.target_model)):
        for p, q in zip(mine.params(), theirs.params()):
            numpy.testing.assert_array_equal(p.array, q.array)
    for p, q in zip(agent.model.params(), other.model.params()):
        numpy.testing.assert_array_equal(p.update_rule.state["m"], q.update_rule.state["m"])
    assert len(other.replay_buffer) == len(agent.replay_buffer)
    with agent.eval_mode(), other.eval_mode():
        numpy.testing.assert_array_equal(agent.batch_act(list(observations)),
                                         other.batch_act(list(observations)))
    assert [n for n, _ in other.get_statistics()] == [n for n, _ in agent.get_statistics()] == STAT_NAMES


def test_statistics_names_are_fixed_from_construction():
    agent = make_agent()
    stats = agent.get_statistics()
    assert [n for n, _ in stats] == STAT_NAMES
    assert numpy.isnan(dict(stats)["average_q"]) and numpy.isnan(dict(stats)["average_loss"])
    assert all(isinstance(v, float) for _, v in stats)


# (e) bad input -------------------------------------------------------------------------------
def test_replay_start_size_above_capacity():
    with pytest.raises(ValueError, match=r"DQN: replay_start_size=200 exceeds the replay buffer.s capacity=100"):
        make_agent(replay_start_size=200)


@pytest.mark.parametrize("kwargs, match", [
    ({"minibatch_size": 8, "replay_start_size": 4}, "minibatch_size"),
    ({"update_interval": 3, "target_update_interval": 10}, "multiple of update_interval"),
    ({"target_update_method": "polyak"}, "target_update_method"),
    ({"soft_update_tau": 0.0}, "soft_update_tau"),
    ({"batch_accumulator": "max"}, "batch_accumulator"),
    ({"max_grad_norm": -1.0}, "max_grad_norm"),
    ({"n_times_update": 0}, "n_times_update"),
])
def test_bad_hyperparameters(kwargs, match):
    with pytest.raises(ValueError, match=match):
        make_agent(**kwargs)


def test_recurrent_needs_a_recurrent_q_function():  # recurrent training: test_dqn_recurrent.py
    with pytest.raises(ValueError, match="DQN: recurrent=True needs a recurrent q_function"):
        make_agent(recurrent=True)


def test_optimizer_must_be_set_up_on_the_q_function():
    q = linear_q()
    with pytest.raises(ValueError, match="optimizer"):
        DQN(q, optimizers.SGD(), ReplayBuffer(10), 0.9, explorers.Greedy(), replay_start_size=1,
            minibatch_size=1)
    with pytest.raises(ValueError, match="does not hold the q_function"):
        DQN(q, optimizers.SGD().setup(linear_q()), ReplayBuffer(10), 0.9, explorers.Greedy(),
            replay_start_size=1, minibatch_size=1)


def test_observation_of_another_shape_or_dtype():
    agent = make_agent()
    agent.act(numpy.float32([1, 0]))
    with pytest.raises(ValueError, match=r"DQN.batch_act: observation of shape \(3,\).*first one had shape \(2,\)"):
        agent.act(numpy.float32([1, 0, 0]))
    with pytest.raises(ValueError, match="dtype float64"):
        agent.observe(numpy.array([1.0, 0.0]), 0.0, False, False)


def test_continuous_actions_for_a_discrete_q_function():
    agent = make_agent(explorer=explorers.ConstantEpsilonGreedy(1.0, lambda: numpy.float32([0.3])))
    with pytest.raises(ValueError, match="DQN: the q_function gives values of 2 discrete actions"):
        agent.act(numpy.float32([1, 0]))


def test_discrete_actions_for_a_continuous_q_function():
    q = q_functions.FCQuadraticStateQFunction(2, 1, 8, 1, gymnasium.spaces.Box(-1, 1, (1,), numpy.float32))
    agent = make_agent(q=q, explorer=explorers.ConstantEpsilonGreedy(1.0, lambda: 1))
    with pytest.raises(ValueError, match="discrete action space"):
        agent.act(numpy.float32([1, 0]))


def test_action_outside_the_q_functions_range():
    agent = make_agent(explorer=explorers.ConstantEpsilonGreedy(1.0, lambda: 2))
    with pytest.raises(ValueError, match="2 discrete actions, but the explorer chose 2"):
        agent.act(numpy.float32([1, 0]))


def test_q_function_must_return_an_action_value():
    q = L.Linear(2, 2)
    agent = DQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                replay_start_size=1, minibatch_size=1)
    with pytest.raises(TypeError, match="must return an ActionValue"):
        agent.act(numpy.float32([1, 0]))


def test_batch_observe_lengths_must_agree():
    agent = make_agent()
    with pytest.raises(ValueError, match=r"batch_observe: .* got lengths \(2, 1, 2, 2\)"):
        agent.batch_observe([numpy.float32([1, 0])] * 2, [0.0], [False, False], [False, False])


# (b) learning a known MDP -------------------------------------------------------------------
@pytest.mark.parametrize("cls", [DQN, DoubleDQN])
def test_learns_the_optimal_q_values(cls):
    _, q = learn_chain(cls)
    numpy.testing.assert_allclose(q, Q_STAR, atol=0.05)


def test_seeded_runs_are_bit_identical():
    (a, qa), (b, qb) = learn_chain(DQN, steps=100), learn_chain(DQN, steps=100)
    assert a.optim_t > 0
    numpy.testing.assert_array_equal(qa, qb)
    numpy.testing.assert_array_equal(a.target_model.model.W.array, b.target_model.model.W.array)


# end to end with a gymnasium environment ------------------------------------------------------
def test_cartpole_smoke():
    set_random_seed(0)
    env = gymnasium.make("CartPole-v1")
    env.action_space.seed(0)
    q = q_functions.FCStateQFunctionWithDiscreteAction(4, 2, 32, 1)
    agent = DoubleDQN(q, optimizers.Adam(1e-3).setup(q), PrioritizedReplayBuffer(1000, num_steps=3), 0.99,
                      explorers.LinearDecayEpsilonGreedy(1.0, 0.1, 200, env.action_space.sample),
                      replay_start_size=64, update_interval=2, target_update_interval=50)
    run(agent, env, 300)
    stats = dict(agent.get_statistics())
    assert stats["cumulative_steps"] == 300
    assert stats["n_updates"] > 100 and numpy.isfinite(stats["average_loss"])
