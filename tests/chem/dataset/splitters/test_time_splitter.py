import numpy
import pytest

from kusari.chem.dataset.splitters.time_splitter import TimeSplitter


def test_split_in_time_order():
    times = [50, 10, 40, 20, 30, 90, 60, 80, 70, 0]
    train, valid, test = TimeSplitter().train_valid_test_split(numpy.zeros(10), time_list=times)
    numpy.testing.assert_array_equal(train, [9, 1, 3, 4, 2, 0, 6, 8])
    numpy.testing.assert_array_equal(valid, [7])
    numpy.testing.assert_array_equal(test, [5])


def test_equal_times_keep_dataset_order():
    train, valid = TimeSplitter().train_valid_split(
        numpy.zeros(4), time_list=[2, 1, 2, 1], frac_train=0.5, frac_valid=0.5)
    numpy.testing.assert_array_equal(train, [1, 3])
    numpy.testing.assert_array_equal(valid, [0, 2])


def test_time_list_is_required():
    with pytest.raises(ValueError, match="TimeSplitter: time_list is required"):
        TimeSplitter().train_valid_test_split(numpy.zeros(4))
