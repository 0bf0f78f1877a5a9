import gc

from kusari.vision.utils.iterator import unzip


def test_columns_read_lazily_and_independently():
    read = []

    def source():
        for i in range(4):
            read.append(i)
            yield i, str(i), -i

    ints, strs, negs = unzip(source())
    assert read == [0]                       # the first tuple, to learn the length
    assert [next(ints), next(ints), next(ints)] == [0, 1, 2]
    assert read == [0, 1, 2]
    assert list(strs) == ["0", "1", "2", "3"]
    assert list(ints) == [3]
    assert list(negs) == [0, -1, -2, -3]


def test_a_deleted_column_stops_buffering():
    ints, strs = unzip((i, str(i)) for i in range(5))
    queues = ints._queues
    del strs
    gc.collect()
    assert list(ints) == [0, 1, 2, 3, 4]
    assert queues[1] is None


def test_empty_tuples_give_no_columns():
    assert unzip([(), ()]) == ()
