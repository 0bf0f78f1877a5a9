import numpy

from kusari.chem.dataset.splitters.deepchem_scaffold_splitter import DeepChemScaffoldSplitter

SMILES = ["c1ccccc1O", "OC1CCCCC1", "CCO", "Cc1ccccc1", "NC1CCCCC1",
          "c1ccccc1N", "CCN", "c1ccccc1Cl", "CC1CCCCC1", "OC(=O)c1ccccc1"]
B, C, A = [0, 3, 5, 7, 9], [1, 4, 8], [2, 6]   # groups, largest first


def test_largest_groups_fill_train_first():
    # cutoffs 8 (train) and 9 (train + valid): B and C fill train exactly, A overflows to test
    train, valid, test = DeepChemScaffoldSplitter().train_valid_test_split(
        numpy.zeros(10), SMILES)
    assert train.tolist() == B + C
    assert valid.tolist() == []
    assert test.tolist() == A


def test_valid_takes_what_overflows_train():
    # cutoffs 5 and 8: B fills train, C goes to valid (5 + 3 <= 8), A to test
    train, valid, test = DeepChemScaffoldSplitter().train_valid_test_split(
        numpy.zeros(10), SMILES, frac_train=0.5, frac_valid=0.3, frac_test=0.2, seed=123)
    assert (train.tolist(), valid.tolist(), test.tolist()) == (B, C, A)


def test_equal_sizes_put_the_later_group_first():
    # groups [0, 2] (benzene) and [1, 3] (none) tie in size; the later first index goes first
    train, valid = DeepChemScaffoldSplitter().train_valid_split(
        numpy.zeros(4), ["c1ccccc1O", "CC", "c1ccccc1N", "CO"], frac_train=0.5, frac_valid=0.5)
    assert train.tolist() == [1, 3]
    assert valid.tolist() == [0, 2]
