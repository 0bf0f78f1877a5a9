"""The replay buffers' .npz format: what it refuses, on save and on load."""
import os
import pickle

import numpy
import pytest

from kusari.rl.replay_buffers import EpisodicReplayBuffer, ReplayBuffer


class _Payload:
    """Unpickling it would create the file ``path``."""

    def __init__(self, path):
        self.path = path

    def __reduce__(self):
        return (open, (self.path, "w"))


def _small_buffer():
    buffer = ReplayBuffer(num_steps=2)
    for s in range(3):
        buffer.append(numpy.full(2, s, numpy.float32), s, 1.0, numpy.full(2, s + 1, numpy.float32),
                      is_state_terminal=s == 2)
    return buffer


def _rewrite(path, **changes):
    with numpy.load(path) as npz:
        arrays = {key: npz[key] for key in npz.files}
    arrays.update(changes)
    numpy.savez(path, **arrays)


def test_refuses_object_arrays_without_unpickling(tmp_path):
    path = tmp_path / "evil.npz"
    _small_buffer().save(path)
    marker = tmp_path / "pwned"
    _rewrite(path, evil=numpy.array([_Payload(str(marker))], dtype=object))
    with pytest.raises(ValueError, match=r"ReplayBuffer.load: .*evil.npz is not a replay-buffer file"):
        ReplayBuffer(num_steps=2).load(path)
    assert not marker.exists()


def test_refuses_a_pickle(tmp_path):
    path = tmp_path / "pfrl_style.pkl"
    marker = tmp_path / "pwned"
    with open(path, "wb") as f:
        pickle.dump([_Payload(str(marker))], f)
    with pytest.raises(ValueError, match="pfrl_style.pkl is not a replay-buffer file"):
        ReplayBuffer().load(path)
    assert not marker.exists()


def test_missing_file():
    with pytest.raises(FileNotFoundError):
        ReplayBuffer().load("/nonexistent/replay.npz")


def test_refuses_a_foreign_npz(tmp_path):
    numpy.savez(tmp_path / "other.npz", W=numpy.zeros(3))
    with pytest.raises(ValueError, match="other.npz is not a replay-buffer file"):
        ReplayBuffer().load(tmp_path / "other.npz")


@pytest.mark.parametrize("changes,message", [
    (dict(**{"field/state": numpy.zeros((2, 2), numpy.float32)}),
     r"'field/state' of shape \(2, 2\) and dtype float32; expected shape \(3, 2\)"),
    (dict(**{"field/state": numpy.zeros((3, 2), numpy.float64)}), "'field/state' .* dtype float64"),
    (dict(entries=numpy.array([[0, 7], [1, 2], [2, -1]], numpy.int64)), "not windows of its 3 transitions"),
    (dict(entries=numpy.array([[-1, 1], [1, 2], [2, -1]], numpy.int64)), "not windows"),
    (dict(entries=numpy.zeros((3, 2), numpy.int32)), "'entries' .* dtype int32"),
    (dict(**{"pytype/action": numpy.full(3, 9, numpy.uint8)}), "unknown codes in 'pytype/action'"),
])
def test_validates_shapes_and_dtypes(tmp_path, changes, message):
    path = tmp_path / "b.npz"
    _small_buffer().save(path)
    _rewrite(path, **changes)
    with pytest.raises(ValueError, match=r"ReplayBuffer.load: .*b.npz"):
        ReplayBuffer(num_steps=2).load(path)
    with pytest.raises(ValueError, match=message):
        ReplayBuffer(num_steps=2).load(path)


def test_validates_episode_lengths(tmp_path):
    buffer = EpisodicReplayBuffer()
    for s in range(3):
        buffer.append(s, 0, 1.0, s + 1, is_state_terminal=s == 2)
    path = tmp_path / "e.npz"
    buffer.save(path)
    _rewrite(path, episode_lengths=numpy.array([2, 2], numpy.int64))
    with pytest.raises(ValueError, match=r"EpisodicReplayBuffer.load: .*e.npz has episode lengths \[2, 2\]"):
        EpisodicReplayBuffer().load(path)


@pytest.mark.parametrize("state,what", [
    ((numpy.zeros(2), numpy.zeros(3)), "tuple"),
    ({"image": numpy.zeros(2)}, "dict"),
    ("text", "str"),
    (numpy.array(["a", "b"]), "ndarray"),
])
def test_save_refuses_unsupported_observations(tmp_path, state, what):
    buffer = ReplayBuffer()
    buffer.append(state, 0, 1.0, state, is_state_terminal=True)
    with pytest.raises(TypeError, match=f"ReplayBuffer.save: cannot save field 'state' holding a {what}; "
                                        "supported values are NumPy arrays"):
        buffer.save(tmp_path / "b.npz")
    assert not os.listdir(tmp_path)    # nothing written, not even a temporary file


def test_save_refuses_mixed_shapes(tmp_path):
    buffer = ReplayBuffer()
    buffer.append(numpy.zeros(2, numpy.float32), 0, 1.0, None)
    buffer.append(numpy.zeros(3, numpy.float32), 0, 1.0, None)
    with pytest.raises(TypeError, match="field 'state' has values of several dtypes/shapes"):
        buffer.save(tmp_path / "b.npz")


def test_save_refuses_different_keys(tmp_path):
    buffer = ReplayBuffer()
    buffer.append(0, 0, 1.0, 1)
    buffer.append(1, 0, 1.0, 2, log_prob=0.5)
    with pytest.raises(ValueError, match="every transition must have the same keys"):
        buffer.save(tmp_path / "b.npz")


def test_none_and_python_numbers_round_trip(tmp_path):
    buffer = ReplayBuffer()
    values = [(0, 1.5, True, None), (1, -2.0, False, numpy.float32(3)), (True, 7.0, False, None)]
    for action, reward, terminal, extra in values:
        buffer.append(None, action, reward, next_action=extra, is_state_terminal=terminal)
    buffer.save(tmp_path / "b.npz")
    loaded = ReplayBuffer()
    loaded.load(tmp_path / "b.npz")
    got = [(e[0]["action"], e[0]["reward"], e[0]["is_state_terminal"], e[0]["next_action"]) for e in loaded.memory]
    assert got == values
    assert [type(a) for a, _, _, _ in got] == [int, int, bool]
    assert type(got[1][3]) is numpy.float32 and got[0][3] is None
    assert all(e[0]["state"] is None for e in loaded.memory)


def test_refuses_windows_with_gaps(tmp_path):
    buffer = ReplayBuffer(num_steps=3)
    for s in range(3):
        buffer.append(s, 0, 1.0, s + 1, is_state_terminal=s == 2)
    path = tmp_path / "b.npz"
    buffer.save(path)
    _rewrite(path, entries=numpy.array([[0, -1, 2], [1, 2, -1], [2, -1, -1]], numpy.int64))
    with pytest.raises(ValueError, match="not windows of its 3 transitions"):
        ReplayBuffer(num_steps=3).load(path)


def _saved_actions(tmp_path, actions):
    """Save a buffer whose 'action' field holds ``actions``; return the field's array and the loaded actions."""
    buffer = ReplayBuffer()
    for a in actions:
        buffer.append(None, a, 1.0, None)
    buffer.save(tmp_path / "b.npz")
    with numpy.load(tmp_path / "b.npz") as npz:
        stored = npz["field/action"]
    loaded = ReplayBuffer()
    loaded.load(tmp_path / "b.npz")
    return stored, [e[0]["action"] for e in loaded.memory]


def test_mixed_integer_scalars_are_saved_in_one_dtype(tmp_path):
    # an explorer's random actions (Python int, int64) among greedy int32 ones
    stored, loaded = _saved_actions(tmp_path, [numpy.int32(1), 2, numpy.int64(3), None, numpy.int32(0)])
    assert stored.dtype == numpy.int64
    assert loaded == [1, 2, 3, None, 0]
    assert [type(a) for a in loaded] == [numpy.int64] * 3 + [type(None), numpy.int64]


@pytest.mark.parametrize("actions,dtype", [
    ([numpy.int32(1), numpy.int32(2)], numpy.int32),            # one dtype stays
    ([numpy.int32(1), numpy.uint8(200)], numpy.int32),
    ([numpy.int8(-1), numpy.uint8(200)], numpy.int16),
    ([numpy.float32(0.5), numpy.float16(0.25)], numpy.float32),  # no float64 present: no upcast
    ([numpy.float32(0.5), numpy.float64(0.25)], numpy.float64),
    ([numpy.float32(0.5), 0.25], numpy.float64),                 # a Python float is a float64
    ([numpy.bool_(True), False], numpy.bool_),
])
def test_mixed_scalar_dtype_rule(tmp_path, actions, dtype):
    stored, loaded = _saved_actions(tmp_path, actions)
    assert stored.dtype == dtype
    assert [type(a) for a in loaded] == [dtype] * len(actions)
    assert [a.item() for a in loaded] == [a.item() if isinstance(a, numpy.generic) else a for a in actions]


@pytest.mark.parametrize("actions,message", [
    ([numpy.float32(0.5), 1], r"field 'action' mixes float and integer scalars \['float32', 'int64'\]"),
    ([numpy.int32(1), True], r"field 'action' mixes bool and integer scalars"),
    ([numpy.int64(1), numpy.uint64(2)], r"field 'action' has integer scalars \['int64', 'uint64'\] that no "
                                        r"integer dtype holds all of \(NumPy would give float64\)"),
])
def test_mixed_scalars_of_different_kinds_are_refused(tmp_path, actions, message):
    buffer = ReplayBuffer()
    for a in actions:
        buffer.append(None, a, 1.0, None)
    with pytest.raises(TypeError, match=r"ReplayBuffer.save: " + message):
        buffer.save(tmp_path / "b.npz")
    assert not os.listdir(tmp_path)


def test_a_python_int_out_of_the_fields_range_is_refused(tmp_path):
    buffer = ReplayBuffer()
    buffer.append(None, numpy.int32(1), 1.0, None)
    buffer.append(None, 2 ** 70, 1.0, None)
    with pytest.raises(ValueError, match="ReplayBuffer.save: field 'action' holds a Python int outside the "
                                         "range of int64"):
        buffer.save(tmp_path / "b.npz")
