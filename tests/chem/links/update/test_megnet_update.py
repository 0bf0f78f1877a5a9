"""MEGNetUpdate on a hand-made two-graph batch: shapes, float32, the per-graph mean, skips."""
import numpy
import pytest
from kusari.chem.links import MEGNetUpdate
from kusari.chem.links.update.megnet_update import get_mean_feat

RNG = numpy.random.RandomState(0)
# graph 0: atoms 0, 1, 2 with bonds 0-1, 1-2; graph 1: atoms 3, 4 with bond 3-4
ATOM_IDX = numpy.array([0, 0, 0, 1, 1])
PAIR_IDX = numpy.array([0, 0, 1])
START, END = numpy.array([0, 1, 3]), numpy.array([1, 2, 4])
ATOMS = RNG.randn(5, 6).astype(numpy.float32)
PAIRS = RNG.randn(3, 4).astype(numpy.float32)
GLOBAL = RNG.randn(2, 2).astype(numpy.float32)


def test_get_mean_feat_averages_rows_per_target():
    feat = RNG.randn(5, 3).astype(numpy.float32)
    mean = get_mean_feat(feat, ATOM_IDX, (2, 3), numpy)
    assert mean.dtype == numpy.float32
    numpy.testing.assert_allclose(mean.array, [feat[:3].mean(0), feat[3:].mean(0)], rtol=1e-6)


@pytest.mark.parametrize("skip_intermediate", [True, False])
def test_shapes_and_float32(skip_intermediate):
    link = MEGNetUpdate(dim_for_dense=[8, 4], dim_for_update=[8, 8, 4],
                        skip_intermediate=skip_intermediate)
    atoms, pairs, glob = ((ATOMS, PAIRS, GLOBAL) if skip_intermediate
                          else (ATOMS[:, :4], PAIRS, GLOBAL[:, [0, 1, 0, 1]]))
    out = link(atoms, pairs, glob, ATOM_IDX, PAIR_IDX, START, END)
    assert [o.shape for o in out] == [(5, 4), (3, 4), (2, 4)]
    assert all(o.dtype == numpy.float32 for o in out)


def test_dims_are_checked():
    with pytest.raises(ValueError, match="MEGNetUpdate: dim_for_update must have 3"):
        MEGNetUpdate(dim_for_update=[8, 4])
