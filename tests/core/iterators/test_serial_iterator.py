import numpy
import pytest

from kusari.iterators import SerialIterator, ShuffleOrderSampler


def _values(batch):
    return [int(x) for x in batch]


def test_in_order_with_repeat():
    it = SerialIterator(list(range(5)), 2, shuffle=False)
    assert it.epoch == 0 and it.epoch_detail == 0 and it.previous_epoch_detail is None
    expected = [([0, 1], 0, False, 0.4), ([2, 3], 0, False, 0.8), ([4, 0], 1, True, 1.2),
                ([1, 2], 1, False, 1.6), ([3, 4], 2, True, 2.0), ([0, 1], 2, False, 2.4)]
    previous = 0.0
    for i, (batch, epoch, new, detail) in enumerate(expected):
        assert _values(next(it)) == batch
        assert (it.epoch, it.is_new_epoch) == (epoch, new)
        assert it.epoch_detail == pytest.approx(detail)
        if i:
            assert it.previous_epoch_detail == pytest.approx(previous)
        previous = detail


def test_without_repeat_stops_after_one_epoch():
    it = SerialIterator(list(range(5)), 2, repeat=False, shuffle=False)
    assert [_values(b) for b in it] == [[0, 1], [2, 3], [4]]
    assert it.epoch == 1 and it.is_new_epoch
    with pytest.raises(StopIteration):
        next(it)
    it.reset()
    assert _values(next(it)) == [0, 1] and it.epoch == 0


def test_batch_larger_than_dataset():
    it = SerialIterator(["a", "b", "c"], 7, shuffle=False)
    assert next(it) == ["a", "b", "c", "a", "b", "c", "a"]
    assert it.epoch == 2 and it.current_position == 1


def test_shuffled_orders_come_from_the_sampler():
    n, bs = 7, 3
    it = SerialIterator(list(range(n)), bs, order_sampler=ShuffleOrderSampler(numpy.random.RandomState(0)))
    reference = numpy.random.RandomState(0)
    stream = numpy.concatenate([reference.permutation(n) for _ in range(4)])
    got = numpy.concatenate([next(it) for _ in range(8)])  # 24 examples: ~3.4 epochs
    numpy.testing.assert_array_equal(got, stream[:24])


def test_shuffle_true_visits_every_example_each_epoch():
    it = SerialIterator(list(range(10)), 5, shuffle=True)
    for _ in range(3):
        epoch = next(it) + next(it)
        assert sorted(epoch) == list(range(10)) and it.is_new_epoch


def test_argument_errors():
    with pytest.raises(ValueError, match="SerialIterator: give shuffle or order_sampler, not both"):
        SerialIterator([1], 1, shuffle=True, order_sampler=ShuffleOrderSampler())
    with pytest.raises(ValueError, match="SerialIterator: batch_size must be a positive int, got 0"):
        SerialIterator([1], 0)
    with pytest.raises(ValueError, match="SerialIterator: the dataset is empty"):
        SerialIterator([], 1)
    with pytest.raises(ValueError, match="returned an order of length 2, expected 3"):
        SerialIterator([1, 2, 3], 2, order_sampler=lambda order, pos: order[:2])
    it = SerialIterator([1, 2, 3], 2, order_sampler=lambda order, pos: order if pos == 0 else order[:2])
    next(it)
    with pytest.raises(ValueError, match="returned an order of length 2, expected 3"):
        next(it)


@pytest.mark.parametrize("random_state", [None, numpy.random.RandomState(1), numpy.random.default_rng(1)])
def test_resume_mid_epoch_continues_bit_for_bit(snapshot, random_state):
    save, load = snapshot
    dataset = list(range(11))
    it = SerialIterator(dataset, 4, order_sampler=ShuffleOrderSampler(random_state))
    for _ in range(4):
        next(it)
    path = save(it)
    expected = [next(it) for _ in range(9)]
    expected_details = (it.epoch, it.epoch_detail)

    # a differently seeded generator of the same kind: the snapshot must overwrite its state
    fresh = None if random_state is None else numpy.random.Generator(numpy.random.PCG64(99)) \
        if isinstance(random_state, numpy.random.Generator) else numpy.random.RandomState(99)
    resumed = SerialIterator(dataset, 4, order_sampler=ShuffleOrderSampler(fresh))
    numpy.random.seed(12345)  # disturb the global generator, which the snapshot must restore
    load(resumed, path)
    assert resumed.epoch == 1 and resumed.current_position == 5
    assert resumed.previous_epoch_detail == pytest.approx(12 / 11)
    assert [next(resumed) for _ in range(9)] == expected
    assert (resumed.epoch, resumed.epoch_detail) == expected_details


def test_resume_without_shuffle(snapshot):
    save, load = snapshot
    it = SerialIterator(list(range(5)), 2, shuffle=False)
    next(it)
    path = save(it)
    resumed = SerialIterator(list(range(5)), 2, shuffle=False)
    load(resumed, path)
    assert _values(next(resumed)) == [2, 3] and resumed.previous_epoch_detail == pytest.approx(0.4)
