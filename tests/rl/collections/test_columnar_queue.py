import numpy
import pytest

from kusari.rl.collections import ColumnarQueue, RandomAccessQueue, SampledExperiences
from kusari.rl.collections import columnar_queue
from kusari.rl.replay_buffer import batch_experiences
from kusari.rl.replay_buffers import ReplayBuffer
from kusari.rl.utils import set_random_seed


def _experience(i, **changes):
    transition = dict(state=numpy.array([i, -i, 0.5 * i], numpy.float32),
                      action=numpy.array([i % 3], numpy.float32), reward=0.1 * i,
                      next_state=numpy.array([i + 1, -i - 1, 0.5 * i + 0.5], numpy.float32),
                      next_action=None, is_state_terminal=i % 7 == 0)
    transition.update(changes)
    return [transition]


def _stacked(experiences, name, dtype=None):
    return numpy.asarray([e[0][name] for e in experiences], dtype=dtype)


def _assert_columns_match(sample):
    assert sample.columns is not None
    for name in ("state", "action", "next_state"):
        numpy.testing.assert_array_equal(sample.columns[name], _stacked(sample, name))
        assert sample.columns[name].dtype == sample[0][0][name].dtype
    for name in ("reward", "is_state_terminal"):
        numpy.testing.assert_array_equal(sample.columns[name], _stacked(sample, name, numpy.float32))
        assert sample.columns[name].dtype == numpy.float32


def test_columns_follow_the_fifo_through_growth_compaction_and_eviction():
    set_random_seed(0)
    queue, reference = ColumnarQueue(maxlen=1500), []
    for i in range(5000):        # grows past 1024 rows, then evicts and compacts many times
        queue.append(_experience(i))
        reference = (reference + [i])[-1500:]
        if i % 5 == 0:
            queue.popleft()
            reference.pop(0)
        if i % 499 == 3:
            assert [e[0]["reward"] for e in queue] == [0.1 * j for j in reference]
            _assert_columns_match(queue.sample(min(64, len(queue))))
    assert len(queue) == len(reference) and queue.has_columns
    _assert_columns_match(queue.sample(len(queue)))


def test_same_draws_as_a_random_access_queue():
    experiences = [_experience(i) for i in range(300)]
    set_random_seed(3)
    plain = RandomAccessQueue(experiences).sample(40)
    set_random_seed(3)
    columnar = ColumnarQueue(experiences).sample(40)
    assert type(columnar) is SampledExperiences
    assert all(a is b for a, b in zip(plain, columnar)) and len(columnar) == 40


@pytest.mark.parametrize("changes", [
    dict(next_action=numpy.zeros(1, numpy.float32)),
    dict(state=[1.0, 2.0, 3.0]),                                 # not an array
    dict(state=numpy.zeros(4, numpy.float32)),                   # another shape
    dict(action=numpy.zeros(1, numpy.float64)),                  # another dtype
    dict(reward=numpy.array([1.0])),                             # not a scalar
    dict(is_state_terminal=None),
])
def test_a_transition_that_does_not_fit_drops_the_columns_for_good(changes):
    queue = ColumnarQueue([_experience(i) for i in range(10)])
    assert queue.has_columns
    queue.append(_experience(10, **changes))
    queue.append(_experience(11))
    assert not queue.has_columns
    sample = queue.sample(12)
    assert sample.columns is None and len({id(e) for e in sample}) == 12


def test_no_columns_for_large_arrays_other_items_or_replaced_items():
    big = numpy.zeros(columnar_queue.MAX_ARRAY_BYTES // 4, numpy.float32)
    assert not ColumnarQueue([_experience(0, state=big, next_state=big)]).has_columns
    assert not ColumnarQueue([_experience(0) + _experience(1)]).has_columns
    assert not ColumnarQueue([1, 2, 3]).has_columns and not ColumnarQueue([[{"x": 1}]]).has_columns
    queue = ColumnarQueue([_experience(0), _experience(1)])
    queue[0] = _experience(5)
    assert not queue.has_columns and queue.sample(2).columns is None


@pytest.mark.parametrize("change", [
    lambda s: s.append(s[0]), lambda s: s.pop(), lambda s: s.__setitem__(0, s[1]),
    lambda s: s.sort(key=id), lambda s: s.reverse(), lambda s: s.__delitem__(0),
    lambda s: s.extend([]), lambda s: s.__iadd__([]), lambda s: s.clear(),
])
def test_changing_a_sample_in_place_drops_its_columns(change):
    sample = ColumnarQueue([_experience(i) for i in range(8)]).sample(4)
    change(sample)
    assert sample.columns is None


def _batches_equal(a, b):
    assert a.keys() == b.keys()
    for key in a:
        assert a[key].dtype == b[key].dtype and a[key].shape == b[key].shape, key
        numpy.testing.assert_array_equal(a[key], b[key], err_msg=key)


@pytest.mark.parametrize("device", [None, "@numpy"])
def test_batch_from_columns_equals_the_batch_from_the_dicts(device):
    set_random_seed(1)
    buffer = ReplayBuffer(capacity=500)
    rng = numpy.random.RandomState(0)
    for i in range(700):
        buffer.append(rng.randn(3).astype(numpy.float32), rng.uniform(-1, 1, 2).astype(numpy.float32),
                      float(rng.randn()), rng.randn(3).astype(numpy.float32),
                      is_state_terminal=bool(i % 11 == 0))
    sample = buffer.sample(64)
    assert sample.columns is not None

    def phi(s):
        return s * 2

    _batches_equal(batch_experiences(sample, device, phi, 0.99),
                   batch_experiences(list(sample), device, phi, 0.99))   # a plain list: the dicts


def test_replay_buffer_keeps_columns_only_for_one_step_experiences(tmp_path):
    one_step, two_step = ReplayBuffer(), ReplayBuffer(num_steps=2)
    for buffer in (one_step, two_step):
        for i in range(20):
            t = _experience(i)[0]
            buffer.append(t["state"], t["action"], t["reward"], t["next_state"],
                          is_state_terminal=t["is_state_terminal"])
    assert type(one_step.memory) is ColumnarQueue and one_step.memory.has_columns
    assert type(two_step.memory) is RandomAccessQueue
    one_step.save(tmp_path / "buffer.npz")
    loaded = ReplayBuffer()
    loaded.load(tmp_path / "buffer.npz")
    assert loaded.memory.has_columns
    set_random_seed(2)
    before = one_step.sample(10)
    set_random_seed(2)
    after = loaded.sample(10)
    for name, column in before.columns.items():
        numpy.testing.assert_array_equal(after.columns[name], column)
