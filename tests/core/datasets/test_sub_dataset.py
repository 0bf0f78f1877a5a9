import numpy
import pytest

from kusari.datasets import (SubDataset, get_cross_validation_datasets, get_cross_validation_datasets_random,
                             split_dataset, split_dataset_n, split_dataset_n_random, split_dataset_random)

DATA = list(range(10, 20))


def test_sub_dataset_window_and_order():
    d = SubDataset(DATA, 2, 5)
    assert len(d) == 3 and list(d[0:3]) == [12, 13, 14] and d[-1] == 14
    order = [9, 8, 7, 6, 5, 4, 3, 2, 1, 0]
    d = SubDataset(DATA, 1, 4, order)
    assert [d[i] for i in range(3)] == [18, 17, 16]
    with pytest.raises(IndexError, match="SubDataset: index 3 is out of range for length 3"):
        d[3]
    with pytest.raises(IndexError):
        d[-4]


def test_sub_dataset_errors():
    with pytest.raises(ValueError, match="need 0 <= start <= finish <= len\\(dataset\\), got start=3, finish=11"):
        SubDataset(DATA, 3, 11)
    with pytest.raises(ValueError, match="order has length 2 but the dataset has 10 examples"):
        SubDataset(DATA, 0, 1, [0, 1])


def test_split_dataset():
    a, b = split_dataset(DATA, 3)
    assert list(a[0:3]) == [10, 11, 12] and len(b) == 7 and b[0] == 13
    a, b = split_dataset(DATA, 2, order=list(reversed(range(10))))
    assert list(a[0:2]) == [19, 18] and b[0] == 17
    with pytest.raises(ValueError, match=r"split_at must be in \[0, 10\] \(len\(dataset\)\), got 11"):
        split_dataset(DATA, 11)


def test_split_dataset_random_is_a_seeded_permutation():
    a, b = split_dataset_random(DATA, 4, seed=0)
    perm = numpy.random.RandomState(0).permutation(10)
    assert [a[i] for i in range(4)] == [DATA[j] for j in perm[:4]]
    assert sorted([a[i] for i in range(4)] + [b[i] for i in range(6)]) == DATA


def test_split_dataset_n():
    parts = split_dataset_n(DATA, 3)
    assert [[p[i] for i in range(len(p))] for p in parts] == [[10, 11, 12], [13, 14, 15], [16, 17, 18]]
    parts = split_dataset_n_random(DATA, 2, seed=1)
    perm = numpy.random.RandomState(1).permutation(10)
    assert [p[i] for p in parts for i in range(5)] == [DATA[j] for j in perm]
    with pytest.raises(ValueError, match="split_dataset_n: n must be >= 1, got 0"):
        split_dataset_n(DATA, 0)


def test_cross_validation_folds_partition_the_data():
    data = list(range(7))
    folds = get_cross_validation_datasets(data, 3)
    tests = [sorted(test[i] for i in range(len(test))) for _, test in folds]
    # borders 0, 2, 4, 7: test parts of sizes 3, 2, 2 taken from the end, rotating
    assert tests == [[4, 5, 6], [2, 3], [0, 1]]
    for train, test in folds:
        assert sorted([train[i] for i in range(len(train))] + [test[i] for i in range(len(test))]) == data
    with pytest.raises(ValueError, match=r"n_fold must be in \[1, 7\] \(len\(dataset\)\), got 8"):
        get_cross_validation_datasets(data, 8)


def test_cross_validation_random():
    folds = get_cross_validation_datasets_random(DATA, 5, seed=2)
    perm = numpy.random.RandomState(2).permutation(10)
    _, last_test = folds[0]
    assert [last_test[i] for i in range(2)] == [DATA[j] for j in perm[8:]]
    seen = sorted(test[i] for _, test in folds for i in range(len(test)))
    assert seen == DATA
