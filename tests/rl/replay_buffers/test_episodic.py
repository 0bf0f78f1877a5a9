import pytest

from kusari.rl.replay_buffers import EpisodicReplayBuffer
from kusari.rl.utils import set_random_seed


def _play(buffer, states, env_id=0, terminal=True):
    for i, s in enumerate(states):
        buffer.append(s, 0, 1.0, s + 1, is_state_terminal=terminal and i == len(states) - 1, env_id=env_id)
    if not terminal:
        buffer.stop_current_episode(env_id)


def _episodes(buffer):
    return [[t["state"] for t in episode] for episode in buffer.episodic_memory]


def test_episodes_are_stored_when_they_end():
    buffer = EpisodicReplayBuffer()
    buffer.append(0, 0, 1.0, 1)
    assert len(buffer) == 0 and buffer.n_episodes == 0
    buffer.append(1, 0, 1.0, 2, is_state_terminal=True)
    _play(buffer, [10, 11, 12], terminal=False)
    assert _episodes(buffer) == [[0, 1], [10, 11, 12]]
    assert [e[0]["state"] for e in buffer.memory] == [0, 1, 10, 11, 12] and len(buffer) == 5


def test_interleaved_env_ids():
    buffer = EpisodicReplayBuffer()
    for s in range(3):
        buffer.append(s, 0, 1.0, s + 1, env_id=0)
        buffer.append(100 + s, 0, 1.0, s + 1, env_id=1, is_state_terminal=s == 2)
    buffer.stop_current_episode(0)
    assert _episodes(buffer) == [[100, 101, 102], [0, 1, 2]]


def test_capacity_drops_whole_oldest_episodes():
    buffer = EpisodicReplayBuffer(capacity=5)
    _play(buffer, [0, 1, 2])
    _play(buffer, [10, 11])
    _play(buffer, [20])
    assert _episodes(buffer) == [[10, 11], [20]] and len(buffer) == 3


def test_sample_episodes_with_max_len():
    set_random_seed(0)
    buffer = EpisodicReplayBuffer()
    _play(buffer, list(range(10)))
    _play(buffer, [50, 51])
    episodes = buffer.sample_episodes(2, max_len=4)
    by_start = sorted(([t["state"] for t in ep] for ep in episodes), key=len)
    assert by_start[0] == [50, 51]
    window = by_start[1]
    assert len(window) == 4 and window == list(range(window[0], window[0] + 4))
    starts = {buffer.sample_episodes(1, max_len=4)[0][0]["state"] for _ in range(200)} - {50}
    assert starts == set(range(7))   # every window position of the long episode occurs
    with pytest.raises(ValueError, match="EpisodicReplayBuffer: cannot sample 3 episodes; the buffer holds 2"):
        buffer.sample_episodes(3)


def test_sample_transitions():
    set_random_seed(0)
    buffer = EpisodicReplayBuffer()
    _play(buffer, list(range(6)))
    batch = buffer.sample(6)
    assert sorted(e[0]["state"] for e in batch) == list(range(6)) and all(len(e) == 1 for e in batch)


def test_save_load(tmp_path):
    buffer = EpisodicReplayBuffer()
    _play(buffer, [0, 1, 2])
    _play(buffer, [10, 11], terminal=False)
    buffer.append(99, 0, 1.0, 100)   # in progress: not saved
    buffer.save(tmp_path / "e.npz")
    loaded = EpisodicReplayBuffer(capacity=4)
    loaded.load(tmp_path / "e.npz")
    assert _episodes(loaded) == [[10, 11]]       # the newest within capacity
    unbounded = EpisodicReplayBuffer()
    unbounded.load(tmp_path / "e.npz")
    assert _episodes(unbounded) == [[0, 1, 2], [10, 11]]
    assert unbounded.memory[0][0] is unbounded.episodic_memory[0][0]
    assert [t["is_state_terminal"] for t in unbounded.episodic_memory[0]] == [False, False, True]
