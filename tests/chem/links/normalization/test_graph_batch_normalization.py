import numpy
import pytest
from kusari.chem.links import GraphBatchNormalization


def test_statistics_over_minibatch_and_nodes():
    x = numpy.random.RandomState(0).randn(3, 4, 2).astype(numpy.float32) * 3 + 1
    y = GraphBatchNormalization(2)(x).array
    assert y.shape == x.shape and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.reshape(-1, 2).mean(axis=0), 0, atol=1e-5)
    numpy.testing.assert_allclose(y.reshape(-1, 2).std(axis=0), 1, rtol=1e-3)


def test_rejects_non_3d_input():
    with pytest.raises(ValueError, match="GraphBatchNormalization"):
        GraphBatchNormalization(2)(numpy.zeros((4, 2), numpy.float32))


def test_padding_nodes_are_left_out_of_the_statistics():
    x = numpy.random.RandomState(0).randn(2, 4, 3).astype(numpy.float32) * 3 + 1
    mask = numpy.array([[1, 1, 1, 0], [1, 1, 0, 0]], numpy.float32)
    x[mask == 0] = 100   # whatever padding holds
    y = GraphBatchNormalization(3)(x, is_real_node=mask).array
    real = y[mask == 1]
    numpy.testing.assert_allclose(real.mean(axis=0), 0, atol=1e-5)
    numpy.testing.assert_allclose(real.std(axis=0), 1, rtol=1e-3)
    numpy.testing.assert_array_equal(y[mask == 0], 0)


def test_rsgcn_training_step_ignores_extra_padding():
    # the same two molecules padded to 5 or to 8 atoms: batch statistics of their atoms only
    import kusari
    from kusari.chem.dataset.converters import concat_mols
    from kusari.chem.models import RSGCN
    rng = numpy.random.RandomState(1)
    molecules = []
    for n in (3, 5):
        adj = (rng.uniform(size=(n, n)) > 0.5).astype(numpy.float32)
        molecules.append((rng.randint(1, 10, n).astype(numpy.int32), (adj + adj.T) / 2))
    atoms, adj = concat_mols(molecules)
    wide_atoms = numpy.full((2, 8), -1, numpy.int32)
    wide_atoms[:, :5] = atoms
    wide_adj = numpy.zeros((2, 8, 8), numpy.float32)
    wide_adj[:, :5, :5] = adj
    numpy.random.seed(0)
    model = RSGCN(out_dim=3, hidden_channels=4, n_update_layers=2, use_batch_norm=True, dropout_ratio=0.0,
                  n_atom_types=10)
    with kusari.using_config("train", True):
        y = model(atoms, adj).array
        y_wide = model(wide_atoms, wide_adj).array
    numpy.testing.assert_allclose(y_wide, y, rtol=1e-5, atol=1e-6)
