"""DQN(recurrent=True): the episodic update against a per-step computation, acting and storing
recurrent states, and the refusals."""
import copy

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers
from kusari.rl.agents.double_dqn import DoubleDQN
from kusari.rl.agents.dqn import DQN
from kusari.rl.agents.residual_dqn import ResidualDQN
from kusari.rl.nn import RecurrentSequential
from kusari.rl.q_functions import DiscreteActionValueHead
from kusari.rl.replay_buffers import EpisodicReplayBuffer, ReplayBuffer
from kusari.rl.utils.recurrent import get_recurrent_state_at, one_step_forward

GAMMA, LR = 0.9, 0.1


def recurrent_q(seed=0, cell="gru"):
    numpy.random.seed(seed)
    rnn = L.NStepGRU(1, 4, 4, 0.0) if cell == "gru" else L.NStepLSTM(1, 4, 4, 0.0)
    return RecurrentSequential(L.Linear(2, 4), F.tanh, rnn, L.Linear(4, 3),
                               DiscreteActionValueHead())


def make_agent(q, cls=DQN, buffer=None, **kwargs):
    kwargs.setdefault("replay_start_size", 2)
    kwargs.setdefault("minibatch_size", 2)
    return cls(q, optimizers.SGD(lr=LR).setup(q),
               EpisodicReplayBuffer(100) if buffer is None else buffer, GAMMA,
               explorers.ConstantEpsilonGreedy(0.0, lambda: 0), recurrent=True, **kwargs)


def episodes_with_states():
    """Two episodes (3 and 2 steps; the second truncated) whose first transitions carry stored
    single-entry GRU states (the other transitions' states must not be used)."""
    rng = numpy.random.RandomState(5)

    def state():
        return (rng.randn(1, 4).astype(numpy.float32),)  # RecurrentSequential: one member, h (S, H)
    episodes = []
    for length, last_terminal in ((3, True), (2, False)):
        obs = rng.randn(length + 1, 2).astype(numpy.float32)
        episode = []
        for t in range(length):
            episode.append(dict(state=obs[t], action=int(rng.randint(3)), reward=float(rng.randn()),
                                next_state=obs[t + 1], next_action=None,
                                is_state_terminal=last_terminal and t == length - 1,
                                recurrent_state=state(), next_recurrent_state=state()))
        episodes.append(episode)
    return episodes


def _per_step(link, observations, start):
    """Outputs of ``link`` stepped through ``observations`` one at a time from the entry ``start``."""
    state = tuple(leaf[:, None] for leaf in start)  # batch of one
    values = []
    for obs in observations:
        av, state = one_step_forward(link, obs[None], state)
        values.append(av)
    return values


@pytest.mark.parametrize("clip_delta", [True, False])
def test_update_equals_per_step_computation(clip_delta):
    q = recurrent_q()
    agent = make_agent(q, clip_delta=clip_delta)
    for param in agent.target_model.params():  # a target that differs from the model
        param.array += 0.1 * numpy.random.RandomState(7).randn(*param.shape).astype(numpy.float32)
    model0, target0 = copy.deepcopy(agent.model), copy.deepcopy(agent.target_model)
    episodes = episodes_with_states()
    agent.update(episodes)

    # by hand: each episode stepped alone, Q(s_t, a_t) from the stored state of its first
    # transition, max_a Q_target(s_{t+1}, a) from the stored next state; then one SGD step
    qs, targets = [], []
    for episode in episodes:
        q_values = _per_step(model0, [t["state"] for t in episode], episode[0]["recurrent_state"])
        with kusari.no_backprop_mode():
            next_values = _per_step(target0, [t["next_state"] for t in episode],
                                    episode[0]["next_recurrent_state"])
        for t, av, next_av in zip(episode, q_values, next_values):
            qs.append(av.q_values[0, t["action"]])
            bootstrap = 0.0 if t["is_state_terminal"] else float(next_av.q_values.array.max())
            targets.append(t["reward"] + GAMMA * bootstrap)
    y = F.stack(qs)
    delta = y.array - numpy.float32(targets)
    if clip_delta:
        losses = numpy.where(abs(delta) <= 1, 0.5 * delta ** 2, abs(delta) - 0.5)
        grad_y = numpy.clip(delta, -1, 1) / len(delta)
    else:
        losses = 0.5 * delta ** 2
        grad_y = delta / len(delta)
    model0.cleargrads()
    F.sum(y * grad_y.astype(numpy.float32)).backward()
    for (name, p), (_, p0) in zip(agent.model.namedparams(), model0.namedparams(), strict=True):
        numpy.testing.assert_allclose(p.array, p0.array - LR * p0.grad, rtol=1e-5, atol=1e-6,
                                      err_msg=name)
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats["average_loss"], losses.mean(), rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_q"], y.array.mean(), rtol=1e-5)
    assert stats["n_updates"] == 1


def test_double_dqn_runs_recurrent():
    """DoubleDQN reuses DQN's recurrent update: its greedy next action comes from the model run
    from the stored next state."""
    q = recurrent_q(cell="lstm")
    agent = make_agent(q, cls=DoubleDQN)
    episodes = episodes_with_states()
    for episode in episodes:  # LSTM states: (h, c) per entry
        for t in episode:
            t["recurrent_state"] = ((t["recurrent_state"][0], t["recurrent_state"][0] * 0.5),)
            t["next_recurrent_state"] = ((t["next_recurrent_state"][0],) * 2,)
    before = [p.array.copy() for p in agent.model.params()]
    agent.update(episodes)
    assert any(not numpy.array_equal(b, p.array) for b, p in zip(before, agent.model.params()))
    assert numpy.isfinite(dict(agent.get_statistics())["average_loss"])


def test_acting_stores_states_and_restarts_them():
    q = recurrent_q(cell="lstm")
    agent = make_agent(q, replay_start_size=100)  # no update in these steps
    rng = numpy.random.RandomState(0)
    obs = [rng.randn(2, 2).astype(numpy.float32) for _ in range(4)]
    # two environments: env 0's episode ends (terminated) after the 2nd step, env 1 runs on
    done = [[False, False], [True, False], [False, False]]
    for step in range(3):
        agent.batch_act(list(obs[step]))
        agent.batch_observe(list(obs[step + 1]), [0.0, 1.0], done[step], [False, False])
    # the states stored are those of env 1 run alone, step by step
    state = None
    expected = []
    for step in range(3):
        before = state
        _, state = one_step_forward(q, obs[step][1:2], state)
        expected.append((before, state))
    stored = agent.replay_buffer.current_episode[1]
    assert len(stored) == 3
    assert stored[0]["recurrent_state"] is None  # the first act starts from zeros
    for t, (before, after) in zip(stored, expected):
        for got, want in ((t["recurrent_state"], before), (t["next_recurrent_state"], after)):
            if want is None:
                continue
            want = get_recurrent_state_at(want, 0, detach=True)
            numpy.testing.assert_allclose(got[0][0], want[0][0], rtol=1e-5, atol=1e-6)
            numpy.testing.assert_allclose(got[0][1], want[0][1], rtol=1e-5, atol=1e-6)
    # env 0's episode is stored whole; its new episode starts from zeros
    assert agent.replay_buffer.n_episodes == 1
    first_of_new = agent.replay_buffer.current_episode[0][0]
    assert not first_of_new["recurrent_state"][0][0].any()
    assert not first_of_new["recurrent_state"][0][1].any()
    # eval mode keeps its own states, restarted when episodes end
    with agent.eval_mode():
        agent.batch_act(list(obs[0]))
        assert agent.test_recurrent_states is not None
        agent.batch_observe(list(obs[1]), [0.0, 0.0], [False, True], [False, False])
        h = agent.test_recurrent_states[0][0]
        assert h[:, 0].any() and not h[:, 1].any()
    assert agent.train_recurrent_states[0][0][:, 1].any()


def test_refusals():
    q = recurrent_q()
    feed_forward = kusari.Sequential(L.Linear(2, 3), DiscreteActionValueHead())
    explorer = explorers.ConstantEpsilonGreedy(0.0, lambda: 0)
    with pytest.raises(ValueError, match="DQN: recurrent=True needs a recurrent q_function .* got "
                                         "the feed-forward Sequential"):
        DQN(feed_forward, optimizers.SGD().setup(feed_forward), EpisodicReplayBuffer(), GAMMA,
            explorer, recurrent=True)
    with pytest.raises(ValueError, match="DQN: the q_function RecurrentSequential is recurrent; "
                                         "pass recurrent=True"):
        DQN(q, optimizers.SGD().setup(q), EpisodicReplayBuffer(), GAMMA, explorer)
    with pytest.raises(TypeError, match="DQN: episodic updates need an episodic replay buffer, "
                                        "got ReplayBuffer"):
        make_agent(q, buffer=ReplayBuffer(100))
    with pytest.raises(NotImplementedError, match="ResidualDQN: recurrent=True is not supported"):
        make_agent(q, cls=ResidualDQN)


def test_training_loop_save_and_load(tmp_path):
    """train_agent_with_evaluation drives a recurrent DQN (updates on 4-step windows, evaluation
    episodes); a loaded copy then acts as the original, step after step, from restarted states."""
    import gymnasium
    from kusari.rl import experiments
    from kusari.rl.utils import set_random_seed

    set_random_seed(0)
    env, eval_env = gymnasium.make("CartPole-v1"), gymnasium.make("CartPole-v1")

    def agent_of(q):
        return DQN(q, optimizers.Adam(1e-3).setup(q), EpisodicReplayBuffer(1000), 0.99,
                   explorers.ConstantEpsilonGreedy(0.1, env.action_space.sample),
                   replay_start_size=40, minibatch_size=4, update_interval=4,
                   target_update_interval=40, episodic_update_len=4, recurrent=True)

    def q_function():
        return RecurrentSequential(L.Linear(4, 8), F.relu, L.NStepLSTM(1, 8, 8, 0.0),
                                   L.Linear(8, 2), DiscreteActionValueHead())
    agent = agent_of(q_function())
    experiments.train_agent_with_evaluation(agent, env, steps=150, eval_n_steps=None,
                                            eval_n_episodes=1, eval_interval=150,
                                            outdir=str(tmp_path / "run"), eval_env=eval_env)
    assert dict(agent.get_statistics())["n_updates"] > 0
    agent.save(str(tmp_path / "agent"))
    loaded = agent_of(q_function())
    loaded.load(str(tmp_path / "agent"))
    observations = numpy.random.RandomState(1).randn(12, 4).astype(numpy.float32)
    with agent.eval_mode(), loaded.eval_mode():
        for each in (agent, loaded):  # both from zeros
            each.observe(observations[0], 0.0, True, False)
        hidden = []
        for each in (agent, loaded):
            hidden.append([])
            for obs in observations:
                each.act(obs)
                hidden[-1].append(each.test_recurrent_states[0][0].copy())
                each.observe(obs, 0.0, False, False)
    assert numpy.abs(hidden[0]).min() > 0
    numpy.testing.assert_allclose(hidden[0], hidden[1], rtol=1e-6)
