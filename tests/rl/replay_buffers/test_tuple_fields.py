"""Tuple-valued transition fields (recurrent states) in EpisodicReplayBuffer files, and a recurrent
DQN saved with its replay buffer."""
import json
import zipfile

import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers
from kusari.rl.agents.dqn import DQN
from kusari.rl.nn import RecurrentSequential
from kusari.rl.q_functions import DiscreteActionValueHead
from kusari.rl.replay_buffers import EpisodicReplayBuffer


def state(rng):
    return ((rng.randn(1, 4).astype(numpy.float32), rng.randn(1, 4).astype(numpy.float32)),)


def filled_buffer():
    rng = numpy.random.RandomState(0)
    buffer = EpisodicReplayBuffer()
    for length in (3, 2):
        for t in range(length):
            buffer.append(rng.randn(2).astype(numpy.float32), t % 2, float(t), rng.randn(2).astype(
                numpy.float32), is_state_terminal=t == length - 1,
                recurrent_state=None if t == 0 else state(rng), next_recurrent_state=state(rng))
    return buffer


def assert_same(a, b):
    if isinstance(a, tuple):
        assert isinstance(b, tuple) and len(a) == len(b)
        for x, y in zip(a, b):
            assert_same(x, y)
    elif a is None:
        assert b is None
    else:
        numpy.testing.assert_array_equal(a, b)
        assert numpy.asarray(a).dtype == numpy.asarray(b).dtype


def test_states_round_trip(tmp_path):
    buffer = filled_buffer()
    buffer.save(tmp_path / "buffer.npz")
    loaded = EpisodicReplayBuffer()
    loaded.load(tmp_path / "buffer.npz")
    assert [len(e) for e in loaded.episodic_memory] == [3, 2]
    for episode, again in zip(buffer.episodic_memory, loaded.episodic_memory):
        for t, u in zip(episode, again):
            assert sorted(t) == sorted(u)
            for key in t:
                assert_same(t[key], u[key])


def test_tuples_of_several_forms_are_refused(tmp_path):
    buffer = filled_buffer()
    buffer.append(numpy.zeros(2, numpy.float32), 0, 0.0, numpy.zeros(2, numpy.float32),
                  is_state_terminal=True, recurrent_state=(numpy.zeros((1, 4), numpy.float32),),
                  next_recurrent_state=None)
    with pytest.raises(TypeError, match=r"EpisodicReplayBuffer.save: field 'recurrent_state' "
                                        r"holds values of several forms \(\['\[0\]', '\[\[0, 0\]\]'\]"):
        buffer.save(tmp_path / "buffer.npz")
    assert not (tmp_path / "buffer.npz").exists()


def test_malformed_forms_are_refused(tmp_path):
    filled_buffer().save(tmp_path / "buffer.npz")
    with numpy.load(tmp_path / "buffer.npz") as f:
        arrays = dict(f)
    index = json.loads(str(arrays["index"]))
    forms = index["tuple_fields"]
    for bad, message in (([[0, "x"]], "has malformed tuple forms in its index"),
                         ([[0, 0, 0]], r"lacks the fields \['recurrent_state/2'\] of the tuple "
                                       "field 'recurrent_state'")):
        index["tuple_fields"] = {**forms, "recurrent_state": bad}
        arrays["index"] = numpy.array(json.dumps(index))
        numpy.savez(tmp_path / "bad.npz", **arrays)
        assert zipfile.is_zipfile(tmp_path / "bad.npz")
        loaded = EpisodicReplayBuffer()
        with pytest.raises(ValueError, match=r"EpisodicReplayBuffer.load: .*bad.npz " + message):
            loaded.load(tmp_path / "bad.npz")
        assert loaded.n_episodes == 0


def test_recurrent_dqn_saved_with_its_buffer(tmp_path):
    def agent_of():
        numpy.random.seed(0)
        q = RecurrentSequential(L.Linear(2, 4), F.tanh, L.NStepLSTM(1, 4, 4, 0.0), L.Linear(4, 2),
                                DiscreteActionValueHead())
        return DQN(q, optimizers.SGD(lr=0.1).setup(q), EpisodicReplayBuffer(100), 0.9,
                   explorers.ConstantEpsilonGreedy(0.0, lambda: 0), replay_start_size=100,
                   minibatch_size=2, recurrent=True)
    agent = agent_of()
    rng = numpy.random.RandomState(1)
    for t in range(7):
        agent.act(rng.randn(2).astype(numpy.float32))
        agent.observe(rng.randn(2).astype(numpy.float32), 1.0, t in (2, 6), False)
    agent.save(tmp_path / "agent", save_replay_buffer=True)
    loaded = agent_of()
    loaded.load(tmp_path / "agent")
    episodes = list(agent.replay_buffer.episodic_memory)
    again = list(loaded.replay_buffer.episodic_memory)
    assert [len(e) for e in again] == [3, 4]
    agent.update(episodes)
    loaded.update(again)
    for (name, p), (_, q) in zip(agent.model.namedparams(), loaded.model.namedparams()):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
