import numpy
import pytest

from kusari.chem.dataset.splitters.scaffold_splitter import ScaffoldSplitter, generate_scaffold

# scaffolds: benzene B = rows 0 3 5 7 9, cyclohexane C = rows 1 4 8, none (acyclic) A = rows 2 6
SMILES = ["c1ccccc1O", "OC1CCCCC1", "CCO", "Cc1ccccc1", "NC1CCCCC1",
          "c1ccccc1N", "CCN", "c1ccccc1Cl", "CC1CCCCC1", "OC(=O)c1ccccc1"]
B, C, A = [0, 3, 5, 7, 9], [1, 4, 8], [2, 6]


def test_generate_scaffold():
    assert generate_scaffold("Nc1coc(=O)nc1N") == "O=c1nccco1"
    assert generate_scaffold("CCO") == ""
    assert generate_scaffold("c1ccccc1CC(=O)O") == "c1ccccc1"


def test_include_chirality_keeps_ring_stereo():
    trans_decalin = "C1C[C@H]2CCCC[C@@H]2CC1"
    assert "@" not in generate_scaffold(trans_decalin)
    assert "@" in generate_scaffold(trans_decalin, include_chirality=True)


# Groups in first-appearance order [B, C, A] are visited in the order
# RandomState(seed).permutation(3): seed 0 -> [2, 1, 0], 1 -> [0, 2, 1], 3 -> [1, 0, 2];
# each fills valid (<= 3 rows) if it fits, else test (<= 2 rows), else train.
@pytest.mark.parametrize("seed, train, valid, test", [
    (0, C + B, A, []),
    (1, B + C, A, []),
    (3, B, C, A),
])
def test_split_by_seeded_group_order(seed, train, valid, test):
    parts = ScaffoldSplitter().train_valid_test_split(
        numpy.zeros(10), SMILES, frac_train=0.5, frac_valid=0.3, frac_test=0.2, seed=seed)
    for got, expected in zip(parts, (train, valid, test)):
        assert got.dtype.kind == "i"
        assert got.tolist() == expected


def test_train_valid_split_keeps_groups_whole():
    train, valid = ScaffoldSplitter().train_valid_split(
        numpy.zeros(10), SMILES, frac_train=0.7, frac_valid=0.3, seed=5)
    assert sorted(valid.tolist()) == C      # B (5 rows) cannot fit in 3; C comes before A
    assert sorted(train.tolist()) == sorted(B + A)


def test_errors():
    with pytest.raises(ValueError, match="10 examples but smiles_list has 9"):
        ScaffoldSplitter().train_valid_test_split(numpy.zeros(10), SMILES[:9])
    with pytest.raises(ValueError, match=r"smiles_list\[1\]: .*cannot parse.*'C1CC'"):
        ScaffoldSplitter().train_valid_test_split(numpy.zeros(2), ["CC", "C1CC"])
