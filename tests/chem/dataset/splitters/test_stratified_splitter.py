import numpy
import pytest

from kusari.chem.dataset.splitters.stratified_splitter import StratifiedSplitter


class TupleOfArrays:
    """Minimal stand-in of NumpyTupleDataset."""

    def __init__(self, *datasets):
        self._datasets = datasets

    def __len__(self):
        return len(self._datasets[0])

    def get_datasets(self):
        return self._datasets


def test_classification_counts_and_seeded_order():
    # classes 0 (rows 0-5) and 1 (rows 6-9); valid = test = floor(0.2 * 10) = 2.
    # valid shares of [6, 4]: floor([1.2, 0.8]) = [1, 0], the leftover draw goes to the larger
    # fraction (class 1): [1, 1]; test shares of the remaining [5, 3]: [1.25, 0.75] -> [1, 1].
    labels = numpy.array([0] * 6 + [1] * 4)
    train, valid, test = StratifiedSplitter().train_valid_test_split(
        numpy.zeros(10), labels=labels, frac_train=0.6, frac_valid=0.2, frac_test=0.2, seed=4)
    rng = numpy.random.RandomState(4)
    class0 = numpy.arange(6)[rng.permutation(6)]   # one permutation per class, class order
    class1 = numpy.arange(6, 10)[rng.permutation(4)]
    numpy.testing.assert_array_equal(valid, [class0[0], class1[0]])
    numpy.testing.assert_array_equal(test, [class0[1], class1[1]])
    numpy.testing.assert_array_equal(train, numpy.concatenate([class0[2:], class1[2:]]))


def test_tied_shares_go_to_the_last_class():
    # five of each class and one valid example: both shares are 0.5; the later class wins
    labels = numpy.array([1, 0] * 5)
    _, valid, _ = StratifiedSplitter().train_valid_test_split(
        numpy.zeros(10), labels=labels, seed=0)
    assert labels[valid].tolist() == [1]


def test_regression_labels_are_binned_by_quantile():
    labels = numpy.arange(20, dtype=numpy.float32)[::-1].copy()   # 4 bins of 5 values
    train, valid, test = StratifiedSplitter().train_valid_test_split(
        numpy.zeros(20), labels=labels, n_bin=4, frac_train=0.6, frac_valid=0.2,
        frac_test=0.2, seed=0)
    for part in (valid, test):
        assert sorted((labels[part] // 5).tolist()) == [0, 1, 2, 3]
    assert sorted(numpy.concatenate([train, valid, test]).tolist()) == list(range(20))


def test_labels_from_numpy_tuple_dataset_and_task_index():
    labels = numpy.stack([numpy.zeros(10, numpy.int32), numpy.array([0] * 6 + [1] * 4)], 1)
    dataset = TupleOfArrays(numpy.zeros((10, 2)), labels)
    got = StratifiedSplitter().train_valid_test_split(dataset, task_index=1, seed=4,
                                                      frac_train=0.6, frac_valid=0.2,
                                                      frac_test=0.2)
    expected = StratifiedSplitter().train_valid_test_split(
        numpy.zeros(10), labels=labels[:, 1], seed=4, frac_train=0.6, frac_valid=0.2,
        frac_test=0.2)
    for a, b in zip(got, expected):
        numpy.testing.assert_array_equal(a, b)


def test_errors():
    splitter = StratifiedSplitter()
    with pytest.raises(ValueError, match="pass labels"):
        splitter.train_valid_test_split(numpy.zeros(4))
    with pytest.raises(ValueError, match="task_type must be one of"):
        splitter.train_valid_test_split(numpy.zeros(4), labels=[0, 1, 0, 1], task_type="x")
    with pytest.raises(ValueError, match="dtype <U1"):
        splitter.train_valid_test_split(numpy.zeros(4), labels=["a", "b", "a", "b"])
    with pytest.raises(ValueError, match="3 labels for a dataset of 4"):
        splitter.train_valid_test_split(numpy.zeros(4), labels=[0, 1, 0])
