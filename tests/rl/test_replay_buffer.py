import re

import numpy
import pytest

from kusari.rl.replay_buffer import ReplayUpdater, batch_experiences, random_subseq
from kusari.rl.replay_buffers import EpisodicReplayBuffer, ReplayBuffer
from kusari.rl.utils import set_random_seed


def _transition(s, reward, terminal=False, next_action=None):
    return dict(state=numpy.full(2, s, numpy.float32), action=s, reward=reward,
                next_state=numpy.full(2, s + 1, numpy.float32), next_action=next_action,
                is_state_terminal=terminal)


def test_batch_experiences_n_step_arithmetic():
    gamma = 0.9
    experiences = [
        [_transition(0, 1.0), _transition(1, 2.0), _transition(2, 4.0)],
        [_transition(5, 3.0), _transition(6, -1.0, terminal=True)],
        [_transition(9, 0.5)],
    ]
    batch = batch_experiences(experiences, None, lambda s: s * 2, gamma)
    numpy.testing.assert_allclose(batch["reward"], [1 + 0.9 * 2 + 0.81 * 4, 3 - 0.9, 0.5], rtol=1e-6)
    numpy.testing.assert_allclose(batch["discount"], [0.729, 0.81, 0.9], rtol=1e-6)
    numpy.testing.assert_array_equal(batch["is_state_terminal"], [0, 1, 0])
    numpy.testing.assert_array_equal(batch["action"], [0, 5, 9])
    numpy.testing.assert_array_equal(batch["state"][:, 0], [0, 10, 18])       # phi of the first state
    numpy.testing.assert_array_equal(batch["next_state"][:, 0], [6, 14, 20])  # phi of the last next_state
    for key in ("reward", "discount", "is_state_terminal", "state", "next_state"):
        assert batch[key].dtype == numpy.float32, key
    assert "next_action" not in batch


def test_batch_experiences_one_step():
    experiences = [[_transition(0, 1.0)], [_transition(3, -2.0, terminal=True)], [_transition(7, 0.5)]]
    batch = batch_experiences(experiences, None, lambda s: s + 10, 0.9)
    numpy.testing.assert_array_equal(batch["state"][:, 0], [10, 13, 17])
    numpy.testing.assert_array_equal(batch["next_state"][:, 0], [11, 14, 18])
    numpy.testing.assert_array_equal(batch["action"], [0, 3, 7])
    numpy.testing.assert_array_equal(batch["reward"], numpy.float32([1.0, -2.0, 0.5]))
    numpy.testing.assert_array_equal(batch["is_state_terminal"], [0, 1, 0])
    numpy.testing.assert_array_equal(batch["discount"], numpy.float32([0.9] * 3))
    for key in ("reward", "discount", "is_state_terminal", "state", "next_state"):
        assert batch[key].dtype == numpy.float32, key
    assert "next_action" not in batch


def test_batch_experiences_refuses_an_empty_batch():
    with pytest.raises(ValueError, match="batch_experiences: experiences is empty"):
        batch_experiences([], None, lambda s: s, 0.9)


def test_batch_experiences_next_action_and_device():
    experiences = [[_transition(0, 1.0, next_action=3)], [_transition(1, 1.0, next_action=4)]]
    batch = batch_experiences(experiences, "@numpy", lambda s: s, 0.99)
    numpy.testing.assert_array_equal(batch["next_action"], [3, 4])


def test_batch_experiences_from_a_buffer():
    buffer = ReplayBuffer(num_steps=2)
    for s in range(3):
        buffer.append(numpy.full(1, s, numpy.float32), s, 1.0, numpy.full(1, s + 1, numpy.float32),
                      is_state_terminal=s == 2)
    batch = batch_experiences(list(buffer.memory), None, lambda s: s, 0.5)
    numpy.testing.assert_allclose(batch["reward"], [1.5, 1.5, 1.0])
    numpy.testing.assert_array_equal(batch["is_state_terminal"], [0, 1, 1])
    numpy.testing.assert_array_equal(batch["next_state"][:, 0], [2, 3, 3])


def test_random_subseq():
    set_random_seed(0)
    seq = list(range(10))
    assert random_subseq(seq, 10) is seq and random_subseq(seq, 20) is seq
    windows = {tuple(random_subseq(seq, 3)) for _ in range(300)}
    assert windows == {tuple(range(i, i + 3)) for i in range(8)}


def test_abstract_buffer_cannot_be_instantiated():
    from kusari.rl.replay_buffer import AbstractReplayBuffer
    with pytest.raises(TypeError):
        AbstractReplayBuffer()


def test_replay_updater_schedule():
    buffer, batches = ReplayBuffer(100), []
    updater = ReplayUpdater(buffer, batches.append, batchsize=3, episodic_update=False, n_times_update=2,
                            replay_start_size=5, update_interval=4)
    ran = []
    for t in range(1, 13):
        buffer.append(**_transition(t, 0.0))
        ran.append(updater.update_if_necessary(t))
    # the buffer holds 5 from t=5; then every 4th step: t=8 and t=12, two updates each
    assert [t for t, r in zip(range(1, 13), ran) if r] == [8, 12]
    assert len(batches) == 4 and all(len(batch) == 3 for batch in batches)
    assert all(len(experience) == 1 for batch in batches for experience in batch)


def test_replay_updater_episodic_waits_for_enough_episodes():
    buffer, batches = EpisodicReplayBuffer(100), []
    updater = ReplayUpdater(buffer, batches.append, batchsize=2, episodic_update=True, n_times_update=1,
                            replay_start_size=2, update_interval=1, episodic_update_len=2)
    for s in range(3):
        buffer.append(**_transition(s, 0.0))
    buffer.stop_current_episode()
    assert not updater.update_if_necessary(1)  # 3 transitions, but one episode
    for s in range(3):
        buffer.append(**_transition(10 + s, 0.0, terminal=s == 2))
    assert updater.update_if_necessary(2)
    episodes, = batches
    assert len(episodes) == 2 and all(len(episode) == 2 for episode in episodes)


@pytest.mark.parametrize("kwargs, message", [
    (dict(batchsize=0), "DQN: minibatch_size must be an int >= 1, got 0"),
    (dict(n_times_update=1.5), "DQN: n_times_update must be an int >= 1, got 1.5"),
    (dict(update_interval=True), "DQN: update_interval must be an int >= 1, got True"),
    (dict(replay_start_size=2), "DQN: replay_start_size=2 is below minibatch_size=4"),
    (dict(replay_start_size=11), "DQN: replay_start_size=11 exceeds the replay buffer's capacity=10"),
])
def test_replay_updater_refuses_bad_arguments(kwargs, message):
    arguments = dict(batchsize=4, episodic_update=False, n_times_update=1, replay_start_size=4,
                     update_interval=1, who="DQN")
    with pytest.raises(ValueError, match=re.escape(message)):
        ReplayUpdater(ReplayBuffer(10), print, **{**arguments, **kwargs})


def test_replay_updater_episodic_needs_an_episodic_buffer():
    with pytest.raises(TypeError, match="SAC: episodic updates need an episodic replay buffer, got ReplayBuffer"):
        ReplayUpdater(ReplayBuffer(10), print, 1, True, 1, 1, 1, who="SAC")
