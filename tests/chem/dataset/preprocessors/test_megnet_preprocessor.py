import json
from pathlib import Path

import numpy
import pytest

Chem = pytest.importorskip("rdkit.Chem")

from kusari.chem.dataset.preprocessors import MEGNetPreprocessor, MolFeatureExtractionError  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "preprocessors.npz"
CENTERS = numpy.linspace(0, 4, 20)


def bond_lengths(pair_feature):
    """The distances behind rows of exp(-(d - c)^2 / 0.25), solved from the two largest entries."""
    lengths = []
    for row in pair_feature.astype(numpy.float64):
        k1, k2 = numpy.argsort(row)[-2:]
        slope = 0.25 * (numpy.log(row[k1]) - numpy.log(row[k2])) / (CENTERS[k1] - CENTERS[k2])
        lengths.append((slope + CENTERS[k1] + CENTERS[k2]) / 2)
    return numpy.array(lengths)


def features(smiles, **kwargs):
    pp = MEGNetPreprocessor(**kwargs)
    _, mol = pp.prepare_smiles_and_mol(Chem.MolFromSmiles(smiles))
    return pp.get_input_features(mol)


def test_ethanol_default_features():
    atom, pair, global_state, bond_idx = features("CCO", add_Hs=False)
    numpy.testing.assert_array_equal(atom, [[0, 1, 0, 0, 0], [0, 1, 0, 0, 0], [0, 0, 0, 1, 0]])
    assert atom.dtype == pair.dtype == global_state.dtype == numpy.float32
    numpy.testing.assert_array_equal(bond_idx, [[0, 1], [1, 2]])
    assert bond_idx.dtype == numpy.int64 and pair.shape == (2, 20)
    lengths = bond_lengths(pair)
    assert 1.45 < lengths[0] < 1.6 and 1.35 < lengths[1] < 1.5   # C-C, C-O
    # MolWt(C2H6O) = 46.069 over 3 heavy atoms; 2 bonds over 3 atoms
    numpy.testing.assert_allclose(global_state, [46.069 / 3, 2 / 3], rtol=1e-4)


def test_hydrogens_are_added_by_default():
    atom, pair, _, _ = features("C")
    numpy.testing.assert_array_equal(atom.sum(axis=0), [4, 1, 0, 0, 0])
    assert pair.shape == (4, 20)


def test_all_features_of_salicylic_acid():
    atom, pair, _, bond_idx = features("O=C(O)c1ccccc1O", add_Hs=False, use_all_feature=True)
    assert atom.shape == (10, 19) and pair.shape == (10, 26)
    ring_atoms = atom[:, 5 + 2 + 3]   # ring-size-6 column after type (5) and chirality (2)
    numpy.testing.assert_array_equal(ring_atoms, [0, 0, 0, 1, 1, 1, 1, 1, 1, 0])
    numpy.testing.assert_array_equal(atom[:, 18], ring_atoms)   # aromatic exactly where the ring is
    numpy.testing.assert_array_equal(atom[3:9, 5 + 2 + 6 + 1], 1)   # aromatic carbons are sp2
    hydroxyl = atom[9, 5 + 2 + 6 + 3:5 + 2 + 6 + 3 + 2]
    numpy.testing.assert_array_equal(hydroxyl, [1, 1])   # donor and acceptor
    aromatic_bonds = pair[:, 3] == 1
    numpy.testing.assert_array_equal(aromatic_bonds, pair[:, 4] == 1)   # in a ring iff aromatic here
    assert aromatic_bonds.sum() == 6 and (pair[:, 5] == 1).all()   # graph distance of a bond: 1
    assert bond_idx.shape == (2, 10)


def test_sp_atoms_get_no_hybridization_column():
    atom, *_ = features("CC#N", add_Hs=False, use_all_feature=True)
    # Chainer Chemistry's 'SP1' never matches RDKit's 'SP': the nitrile atoms stay all-zero
    numpy.testing.assert_array_equal(atom[:, 13:16], [[0, 0, 1], [0, 0, 0], [0, 0, 0]])


def test_unknown_atoms():
    # canonical SMILES CCl: the chlorine is atom 1
    with pytest.raises(MolFeatureExtractionError, match="atom 1 is Cl, which is not in atom_list"):
        features("ClC", add_Hs=False)
    atom, *_ = features("ClC", add_Hs=False, include_unknown_atom=True)
    numpy.testing.assert_array_equal(atom, [[0, 1, 0, 0, 0, 0], [0, 0, 0, 0, 0, 1]])
    atom, *_ = features("ClC", add_Hs=False, atom_list=["C", "Cl"])
    numpy.testing.assert_array_equal(atom, [[1, 0], [0, 1]])


def test_molecule_without_bonds():
    _, pair, global_state, bond_idx = features("[Na+]", add_Hs=False, include_unknown_atom=True)
    assert pair.shape == (0, 20) and bond_idx.shape == (2, 0) and bond_idx.dtype == numpy.int64
    assert global_state[1] == 0


def test_max_atoms_and_attributes():
    pp = MEGNetPreprocessor(max_atoms=2, add_Hs=False, expand_dim=10)
    assert pp.add_Hs is False and pp.gdf.centers.shape == (10,) and pp.max_num_nbr == 12
    with pytest.raises(MolFeatureExtractionError):
        pp.get_input_features(Chem.MolFromSmiles("CCO"))


# --- parity with Chainer Chemistry 0.7.1 (preprocessors.npz, 'megnet/...') ---

def test_parity_with_chainer_chemistry():
    if not FIXTURE.exists():
        pytest.skip(f"{FIXTURE} is missing (written by tools/make_chemistry_fixture.py)")
    smiles = [line.split(",")[0] for line in (FIXTURE.parent / "molecules.csv").read_text().splitlines()[1:]]
    with numpy.load(FIXTURE) as npz:
        fx = {key: npz[key] for key in npz.files if key.startswith("megnet/")}
    pp = MEGNetPreprocessor(**json.loads(str(fx["megnet/kwargs"])))
    rows, canonical = [], []
    for row, s in enumerate(smiles):
        mol = Chem.MolFromSmiles(s)
        if mol is None:
            continue
        try:
            canonical_smiles, mol = pp.prepare_smiles_and_mol(mol)
            got = pp.get_input_features(mol)
        except MolFeatureExtractionError:
            continue
        i = len(rows)
        for k in (0, 2, 3):   # atom features, global state, bond indices: exact
            expected = fx[f"megnet/{i}/{k}"]
            assert got[k].dtype == expected.dtype and got[k].shape == expected.shape, (row, k)
            numpy.testing.assert_array_equal(got[k], expected)
        # pair features come from an unseeded 3-D embedding: compare the bond lengths they encode
        expected = fx[f"megnet/{i}/1"]
        assert got[1].dtype == expected.dtype and got[1].shape == expected.shape
        numpy.testing.assert_allclose(bond_lengths(got[1]), bond_lengths(expected), atol=0.1)
        rows.append(row)
        canonical.append(canonical_smiles)
    assert rows == fx["megnet/rows"].tolist()
    assert canonical == fx["megnet/canonical_smiles"].tolist()
