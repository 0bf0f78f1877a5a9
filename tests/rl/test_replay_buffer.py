import numpy
import pytest

from kusari.rl.replay_buffer import batch_experiences, random_subseq
from kusari.rl.replay_buffers import ReplayBuffer
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
