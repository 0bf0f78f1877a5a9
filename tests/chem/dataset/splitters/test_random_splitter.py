import numpy
import pytest

from kusari.chem.dataset.splitters.random_splitter import RandomSplitter


@pytest.mark.parametrize("seed", [0, 7])
def test_indices_are_the_seeded_permutation_cut(seed):
    dataset = numpy.zeros((10, 3))
    train, valid, test = RandomSplitter().train_valid_test_split(dataset, seed=seed)
    perm = numpy.random.RandomState(seed).permutation(10)
    numpy.testing.assert_array_equal(train, perm[:8])
    numpy.testing.assert_array_equal(valid, perm[8:9])
    numpy.testing.assert_array_equal(test, perm[9:])


def test_fractions_use_int_truncation():
    # int(13 * 0.5) = 6 train, int(13 * 0.3) = 3 valid, the remaining 4 test
    train, valid, test = RandomSplitter().train_valid_test_split(
        numpy.zeros(13), frac_train=0.5, frac_valid=0.3, frac_test=0.2, seed=3)
    assert (len(train), len(valid), len(test)) == (6, 3, 4)
    assert sorted(numpy.concatenate([train, valid, test]).tolist()) == list(range(13))


def test_train_valid_split():
    train, valid = RandomSplitter().train_valid_split(numpy.zeros(10), seed=5)
    perm = numpy.random.RandomState(5).permutation(10)
    numpy.testing.assert_array_equal(train, perm[:9])
    numpy.testing.assert_array_equal(valid, perm[9:])


def test_no_seed_draws_from_the_global_generator():
    numpy.random.seed(11)
    train, valid, test = RandomSplitter().train_valid_test_split(numpy.zeros(10))
    numpy.testing.assert_array_equal(numpy.concatenate([train, valid, test]),
                                     numpy.random.RandomState(11).permutation(10))


def test_fractions_must_sum_to_one():
    with pytest.raises(ValueError, match="RandomSplitter: frac_train"):
        RandomSplitter().train_valid_test_split(numpy.zeros(10), frac_train=0.5)
