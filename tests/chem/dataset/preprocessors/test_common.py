import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import common  # noqa: E402

ETHANOL_ADJ = [[1, 1, 0], [1, 1, 1], [0, 1, 1]]


def test_atomic_number_array():
    mol = Chem.MolFromSmiles("CCO")
    got = common.construct_atomic_number_array(mol)
    assert got.dtype == numpy.int32
    numpy.testing.assert_array_equal(got, [6, 6, 8])
    numpy.testing.assert_array_equal(common.construct_atomic_number_array(mol, out_size=5),
                                     [6, 6, 8, 0, 0])
    with pytest.raises(ValueError, match="out_size=2"):
        common.construct_atomic_number_array(mol, out_size=2)


def test_adj_matrix_self_loops_and_padding():
    mol = Chem.MolFromSmiles("CCO")
    adj = common.construct_adj_matrix(mol)
    assert adj.dtype == numpy.float32
    numpy.testing.assert_array_equal(adj, ETHANOL_ADJ)
    no_self = common.construct_adj_matrix(mol, self_connection=False)
    numpy.testing.assert_array_equal(no_self, numpy.array(ETHANOL_ADJ) - numpy.eye(3))
    padded = common.construct_adj_matrix(mol, out_size=4)
    assert padded.shape == (4, 4) and padded.dtype == numpy.float32
    numpy.testing.assert_array_equal(padded[:3, :3], ETHANOL_ADJ)
    assert not padded[3].any() and not padded[:, 3].any()
    with pytest.raises(ValueError, match="construct_adj_matrix"):
        common.construct_adj_matrix(mol, out_size=2)


def test_discrete_edge_matrix_bond_channels():
    mol = Chem.MolFromSmiles("C=CC#N")  # atoms 0=C 1=C 2=C 3=N: double 0-1, single 1-2, triple 2-3
    adjs = common.construct_discrete_edge_matrix(mol, out_size=5)
    assert adjs.shape == (4, 5, 5) and adjs.dtype == numpy.float32
    expected = numpy.zeros((4, 5, 5), numpy.float32)
    for channel, (i, j) in [(1, (0, 1)), (0, (1, 2)), (2, (2, 3))]:
        expected[channel, i, j] = expected[channel, j, i] = 1
    numpy.testing.assert_array_equal(adjs, expected)


def test_discrete_edge_matrix_aromatic_and_self_channel():
    mol = Chem.MolFromSmiles("c1ccccc1")
    adjs = common.construct_discrete_edge_matrix(mol, out_size=7, add_self_connection_channel=True)
    assert adjs.shape == (5, 7, 7)
    assert adjs[3].sum() == 12 and adjs[:3].sum() == 0   # 6 aromatic bonds, both directions
    numpy.testing.assert_array_equal(numpy.diag(adjs[4]), [1] * 6 + [0])
    assert adjs[4].sum() == 6


def test_type_check_num_atoms():
    mol = Chem.MolFromSmiles("CCO")
    common.type_check_num_atoms(mol, 3)
    common.type_check_num_atoms(mol, -1)
    with pytest.raises(common.MolFeatureExtractionError, match="3 atoms"):
        common.type_check_num_atoms(mol, 2)


def test_supernode_feature_of_ethanol():
    mol = Chem.MolFromSmiles("CCO")
    atoms = common.construct_atomic_number_array(mol)
    x = common.construct_supernode_feature(mol, atoms, common.construct_adj_matrix(mol))
    n = common.MAX_ATOMIC_NUM
    assert x.shape == (2 + 1 + 1 + 2 * n,) and x.dtype == numpy.float32
    numpy.testing.assert_allclose(x[:4], [3, 7, 1, 1])   # atoms, adj sum (4 bond + 3 self), type, freq
    atom_type, atom_freq = x[4:4 + n], x[4 + n:]
    assert set(numpy.flatnonzero(atom_type)) == {5, 7}   # carbon (6) and oxygen (8), shifted by one
    numpy.testing.assert_allclose(atom_freq[[5, 7]], [2 / 3, 1 / 3], rtol=1e-6)


def test_supernode_feature_per_bond_type():
    mol = Chem.MolFromSmiles("C=CC")
    atoms = common.construct_atomic_number_array(mol)
    x = common.construct_supernode_feature(mol, atoms, common.construct_discrete_edge_matrix(mol))
    assert x.shape == (2 + 4 + 4 + 2 * common.MAX_ATOMIC_NUM,)
    numpy.testing.assert_allclose(x[:10], [3, 4, 1, 1, 0, 0, 0.5, 0.5, 0, 0])
