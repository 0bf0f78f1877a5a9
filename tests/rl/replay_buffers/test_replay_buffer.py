import numpy
import pytest

from kusari.rl.replay_buffers import ReplayBuffer
from kusari.rl.utils import set_random_seed


def _play(buffer, states, env_id=0, terminal=False):
    """Append one transition per state (reward = state); the last one terminal if asked."""
    for i, s in enumerate(states):
        buffer.append(state=s, action=s % 2, reward=float(s), next_state=s + 1,
                      is_state_terminal=terminal and i == len(states) - 1, env_id=env_id)


def _windows(buffer):
    return [[t["state"] for t in experience] for experience in buffer.memory]


def _expected(states, n):
    """The experience starting at each transition: it and up to n - 1 following ones of its episode."""
    return [list(states[i:i + n]) for i in range(len(states))]


@pytest.mark.parametrize("num_steps", [1, 3])
@pytest.mark.parametrize("length", [1, 2, 3, 7])
@pytest.mark.parametrize("terminal", [True, False])
def test_n_step_windows_at_episode_end(num_steps, length, terminal):
    buffer = ReplayBuffer(num_steps=num_steps)
    states = list(range(length))
    _play(buffer, states, terminal=terminal)
    if not terminal:
        buffer.stop_current_episode()
    assert _windows(buffer) == _expected(states, num_steps)
    assert len(buffer) == length
    terminal_flags = [[t["is_state_terminal"] for t in e] for e in buffer.memory]
    assert any(f[-1] for f in terminal_flags) == terminal


def test_full_windows_are_stored_as_they_fill():
    buffer = ReplayBuffer(num_steps=3)
    _play(buffer, [0, 1, 2, 3])
    assert _windows(buffer) == [[0, 1, 2], [1, 2, 3]]


def test_episodes_do_not_mix_after_stop_or_terminal():
    buffer = ReplayBuffer(num_steps=3)
    _play(buffer, [0, 1, 2, 3])
    buffer.stop_current_episode()
    buffer.stop_current_episode()    # nothing pending: nothing stored
    _play(buffer, [10, 11], terminal=True)
    buffer.stop_current_episode()    # after a terminal transition: nothing pending
    _play(buffer, [20, 21, 22])
    assert _windows(buffer) == _expected([0, 1, 2, 3], 3) + _expected([10, 11], 3) + [[20, 21, 22]]


def test_interleaved_env_ids():
    buffer = ReplayBuffer(num_steps=2)
    for s in range(5):
        _play(buffer, [s], env_id="a")
        _play(buffer, [100 + s], env_id="b", terminal=s == 2)
    buffer.stop_current_episode(env_id="a")
    windows = _windows(buffer)
    for_a = [w for w in windows if w[0] < 100]
    for_b = [w for w in windows if w[0] >= 100]
    assert for_a == _expected([0, 1, 2, 3, 4], 2)
    assert for_b == _expected([100, 101, 102], 2) + [[103, 104]]


def test_windows_share_transitions():
    buffer = ReplayBuffer(num_steps=2)
    _play(buffer, [0, 1, 2], terminal=True)
    assert buffer.memory[0][1] is buffer.memory[1][0]


def test_capacity_evicts_the_oldest():
    buffer = ReplayBuffer(capacity=5)
    _play(buffer, list(range(8)))
    assert len(buffer) == 5 and _windows(buffer) == [[s] for s in range(3, 8)]
    assert buffer.capacity == 5


def test_sample_sizes_and_seeded_repeat():
    buffer = ReplayBuffer()
    _play(buffer, list(range(50)))
    set_random_seed(0)
    batch = buffer.sample(10)
    assert len(batch) == 10 and len({e[0]["state"] for e in batch}) == 10
    set_random_seed(0)
    assert [e[0]["state"] for e in buffer.sample(10)] == [e[0]["state"] for e in batch]
    assert buffer.sample(0) == []
    with pytest.raises(ValueError, match="ReplayBuffer: cannot sample 51 experiences; the buffer holds 50"):
        buffer.sample(51)


def test_extra_keys_are_stored():
    buffer = ReplayBuffer()
    buffer.append(0, 1, 0.5, 1, next_action=2, is_state_terminal=True, log_prob=-0.3)
    (experience,) = buffer.memory
    assert experience[0]["log_prob"] == -0.3 and experience[0]["next_action"] == 2


@pytest.mark.parametrize("kwargs,message", [
    (dict(capacity=0), "ReplayBuffer: capacity must be None or an int >= 1, got 0"),
    (dict(num_steps=0), "ReplayBuffer: num_steps must be an int >= 1, got 0"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        ReplayBuffer(**kwargs)


def _frames_buffer(obs_dtype):
    set_random_seed(4)
    buffer = ReplayBuffer(num_steps=3)
    for episode in range(3):
        for t in range(5):
            obs = (numpy.random.rand(2, 4, 4) * 255).astype(obs_dtype)
            buffer.append(obs, numpy.int64(t % 3), float(t) - 0.5, obs + 1,
                          next_action=None if t == 4 else numpy.array([t, 1], numpy.float32),
                          is_state_terminal=episode == 0 and t == 4, env_id=episode % 2, step=t)
        if episode:
            buffer.stop_current_episode(env_id=episode % 2)
    return buffer


def _assert_same_contents(loaded, original):
    assert len(loaded) == len(original)
    for got, want in zip(loaded, original):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            assert list(g) == list(w)
            for key in w:
                assert type(g[key]) is type(w[key]), key
                if isinstance(w[key], (numpy.ndarray, numpy.generic)):
                    assert g[key].dtype == w[key].dtype and g[key].shape == w[key].shape, key
                numpy.testing.assert_array_equal(g[key], w[key])


@pytest.mark.parametrize("obs_dtype", [numpy.uint8, numpy.float32])
def test_save_load_round_trip(tmp_path, obs_dtype):
    buffer = _frames_buffer(obs_dtype)
    path = tmp_path / "replay.npz"
    buffer.save(path)
    loaded = ReplayBuffer(num_steps=3)
    loaded.load(path)
    _assert_same_contents(list(loaded.memory), list(buffer.memory))
    assert loaded.memory[0][1] is loaded.memory[1][0]     # windows share transitions again
    assert [p.name for p in tmp_path.iterdir()] == ["replay.npz"]   # no temporary file left


def test_load_keeps_the_newest_within_capacity(tmp_path):
    buffer = ReplayBuffer()
    _play(buffer, list(range(10)))
    buffer.save(tmp_path / "b.npz")
    small = ReplayBuffer(capacity=4)
    small.load(tmp_path / "b.npz")
    assert _windows(small) == [[6], [7], [8], [9]]


def test_load_refuses_other_num_steps(tmp_path):
    buffer = ReplayBuffer(num_steps=2)
    _play(buffer, [0, 1, 2])
    buffer.save(tmp_path / "b.npz")
    with pytest.raises(ValueError, match=r"ReplayBuffer.load: .*b.npz holds 2-step experiences; .*num_steps=1"):
        ReplayBuffer().load(tmp_path / "b.npz")
