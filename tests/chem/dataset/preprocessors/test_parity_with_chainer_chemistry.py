"""Every preprocessor against what Chainer Chemistry 0.7.1 made of tests/chem/fixtures/molecules.csv.

preprocessors.npz holds, per method, the outputs of ``prepare_smiles_and_mol`` + ``get_input_features``
for each molecule that succeeded and the rows that were skipped (see tests/chem/fixtures/README.md).
"""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")
pytest.importorskip("pandas")

import pandas
from kusari.chem.dataset.preprocessors import preprocess_method_dict
from rdkit import Chem, RDLogger

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"
FIXTURE = FIXTURES / "preprocessors.npz"
MOLECULES = FIXTURES / "molecules.csv"

# fixture methods that are not keys of preprocess_method_dict, and the key whose class they use
EXTRA_METHODS = {"nfp_max_atoms20": "nfp"}
METHODS = sorted(preprocess_method_dict) + sorted(EXTRA_METHODS)

# the largest bond-length difference seen between two unseeded RDKit embeddings of these molecules is
# about 0.12 Angstrom (thiophene); a wrong atom order or unit moves bonded distances by far more
BOND_LENGTH_ATOL = 0.25
# megnet's pair features are Gaussians of width 0.5 Angstrom over the bond lengths above
# (slope at most 1.72 per Angstrom)
EXPANDED_DISTANCE_ATOL = 0.3


@pytest.fixture(scope="module")
def expected():
    for path in (FIXTURE, MOLECULES):
        if not path.exists():
            pytest.skip(f"Chainer Chemistry fixture {path.name} is missing")
    with numpy.load(FIXTURE) as npz:
        return {key: npz[key] for key in npz.files}


@pytest.fixture(scope="module")
def smiles_column():
    return pandas.read_csv(MOLECULES)["smiles"].tolist()


def _run(preprocessor, smiles_column):
    """What the fixture script did: skip the unparsable rows and those whose features fail."""
    features, canonical, rows, skipped_rows, reasons = [], [], [], [], []
    RDLogger.DisableLog("rdApp.*")  # the unparsable SMILES is expected
    try:
        for row, smiles in enumerate(smiles_column):
            mol = Chem.MolFromSmiles(smiles)
            if mol is None:
                skipped_rows.append(row)
                reasons.append("unparsable")
                continue
            try:
                canonical_smiles, mol = preprocessor.prepare_smiles_and_mol(mol)
                output = preprocessor.get_input_features(mol)
            except Exception as e:  # noqa: BLE001  (the fixture records every failure with its type)
                skipped_rows.append(row)
                reasons.append(type(e).__name__)
                continue
            features.append(output if isinstance(output, tuple) else (output,))
            canonical.append(canonical_smiles)
            rows.append(row)
    finally:
        RDLogger.EnableLog("rdApp.*")
    return features, canonical, rows, skipped_rows, reasons


def _assert_bond_lengths_close(mol, distances, expected, where):
    numpy.testing.assert_array_equal(distances, distances.T, err_msg=where)
    numpy.testing.assert_array_equal(numpy.diag(distances), 0, err_msg=where)
    n = mol.GetNumAtoms()
    assert (distances[:n, :n][~numpy.eye(n, dtype=bool)] > 0).all(), where
    bonded = Chem.GetAdjacencyMatrix(mol).astype(bool)
    numpy.testing.assert_allclose(distances[:n, :n][bonded], expected[:n, :n][bonded],
                                  atol=BOND_LENGTH_ATOL, rtol=0, err_msg=where)


@pytest.mark.parametrize("method", METHODS)
def test_features_of_every_molecule_match(method, expected, smiles_column):
    skipped = json.loads(str(expected["skipped"]))
    if method in skipped:
        pytest.skip(f"Chainer Chemistry did not run {method!r}: {skipped[method]}")
    assert f"{method}/kwargs" in expected, f"{method!r} is neither in the fixture nor skipped by it"
    kwargs = json.loads(str(expected[f"{method}/kwargs"]))
    preprocessor = preprocess_method_dict[EXTRA_METHODS.get(method, method)](**kwargs)

    features, canonical, rows, skipped_rows, reasons = _run(preprocessor, smiles_column)

    assert rows == expected[f"{method}/rows"].tolist()
    assert skipped_rows == expected[f"{method}/skipped_rows"].tolist()
    # upstream's messages differ from kusari's; the exception type is the contract
    assert reasons == [r.split(":")[0] for r in expected[f"{method}/skipped_reasons"].tolist()]
    assert canonical == expected[f"{method}/canonical_smiles"].tolist()
    n_outputs = len([key for key in expected if key.startswith(f"{method}/0/")])
    for i, output in enumerate(features):
        assert len(output) == n_outputs, f"{method}/{i}"
        for k, value in enumerate(output):
            where = f"{method}/{i}/{k}"
            value, want = numpy.asarray(value), expected[where]
            assert (value.dtype, value.shape) == (want.dtype, want.shape), where
            if (method, k) == ("schnet", 1):
                mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(smiles_column[rows[i]]))[1]
                _assert_bond_lengths_close(mol, value, want, where)
            elif (method, k) == ("megnet", 1):
                numpy.testing.assert_allclose(value, want, atol=EXPANDED_DISTANCE_ATOL, rtol=0,
                                              err_msg=where)
            else:
                numpy.testing.assert_array_equal(value, want, err_msg=where, strict=True)
