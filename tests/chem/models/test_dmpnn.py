"""DMPNN and ChempropPreprocessor against chemprop 2.3.1 (tests/chem/fixtures/chemprop.npz, written by
tools/make_chemprop_fixture.py from chemprop's own featurizer and D-MPNN)."""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")
from rdkit import Chem  # noqa: E402

import kusari  # noqa: E402
from kusari import functions as F  # noqa: E402
from kusari.chem.dataset.converters import concat_mols  # noqa: E402
from kusari.chem.dataset.preprocessors import ChempropPreprocessor, atom_features, bond_features  # noqa: E402
from kusari.chem.models import MLP, DMPNN  # noqa: E402
from kusari.chem.models.prediction import GraphConvPredictor  # noqa: E402

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "chemprop.npz"


@pytest.fixture(scope="module")
def chemprop():
    with numpy.load(FIXTURE) as z:
        return {k: z[k] for k in z.files}


def _predictor(fx):
    hidden = fx["param/message_passing.W_h.weight"].shape[0]
    predictor = GraphConvPredictor(DMPNN(hidden_channels=hidden), MLP(out_dim=1, hidden_dim=hidden))
    # torch's Linear.weight is (out, in), as kusari's Linear.W
    loads = {"graph_conv/W_i/W": "message_passing.W_i.weight",
             "graph_conv/W_h/W": "message_passing.W_h.weight",
             "graph_conv/W_o/W": "message_passing.W_o.weight",
             "graph_conv/W_o/b": "message_passing.W_o.bias",
             "mlp/layers/0/W": "predictor.ffn.0.0.weight", "mlp/layers/0/b": "predictor.ffn.0.0.bias",
             "mlp/l_out/W": "predictor.ffn.1.2.weight", "mlp/l_out/b": "predictor.ffn.1.2.bias"}
    params = dict(predictor.namedparams())
    for path, name in loads.items():
        param = params["/" + path]
        if param.array is None:
            param.initialize(fx[f"param/{name}"].shape)
        param.array[...] = fx[f"param/{name}"]
    assert sorted(p.lstrip("/") for p in params) == sorted(loads)
    return predictor, {path: name for path, name in loads.items()}


def _batch(fx):
    pre = ChempropPreprocessor()
    return concat_mols([pre.get_input_features(pre.prepare_smiles_and_mol(Chem.MolFromSmiles(str(s)))[1])
                        for s in fx["smiles"]])


def test_features_equal_chemprops(chemprop):
    for k, smiles in enumerate(chemprop["smiles"]):
        mol = Chem.MolFromSmiles(str(smiles))   # chemprop's make_mol: the SMILES' atom order
        numpy.testing.assert_allclose(numpy.stack([atom_features(a) for a in mol.GetAtoms()]),
                                      chemprop[f"mol/{k}/V"], rtol=1e-6, err_msg=str(smiles))
        edges = chemprop[f"mol/{k}/edge_index"]
        for row, (u, v) in enumerate(edges.T):
            bond = mol.GetBondBetweenAtoms(int(u), int(v))
            numpy.testing.assert_array_equal(bond_features(bond), chemprop[f"mol/{k}/E"][row])


def test_defaults_are_chemprop_trains(chemprop):
    defaults = json.loads(str(chemprop["defaults"]))
    model = DMPNN()
    assert (model.hidden_channels, model.n_update_layers, model.aggregation_norm, model.dropout_ratio) == (
        defaults["message_hidden_dim"], defaults["depth"], defaults["aggregation_norm"], defaults["dropout"])
    assert model.W_i.b is None and model.W_h.b is None and not defaults["message_bias"]
    assert (defaults["aggregation"], defaults["ffn_num_layers"], defaults["batch_norm"],
            defaults["undirected"], defaults["activation"], defaults["atom_features"]) == (
        "norm", 1, False, False, "RELU", "V2")


def test_outputs_and_gradients_equal_chemprops(chemprop):
    predictor, names = _predictor(chemprop)
    atoms, bonds = _batch(chemprop)
    with kusari.using_config("train", False):
        fingerprint = predictor.graph_conv(atoms, bonds)
        y = predictor(atoms, bonds)
    numpy.testing.assert_allclose(fingerprint.array, chemprop["fingerprint"], rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(y.array, chemprop["y"], rtol=1e-5, atol=1e-6)
    predictor.cleargrads()
    F.mean_squared_error(predictor(atoms, bonds), chemprop["t"]).backward()
    for path, param in predictor.namedparams():
        numpy.testing.assert_allclose(param.grad, chemprop["grad/" + names[path.lstrip("/")]],
                                      rtol=1e-4, atol=1e-6, err_msg=path)


def test_a_molecule_alone_and_batched(chemprop):
    predictor, _ = _predictor(chemprop)
    pre = ChempropPreprocessor()
    examples = [pre.get_input_features(pre.prepare_smiles_and_mol(Chem.MolFromSmiles(s))[1])
                for s in ("CCO", "[Na+].[Cl-]", "C" * 30, "OC1C(O)C(O)C(O)C(O)C1O")]
    with kusari.using_config("train", False):
        for k in (0, 1):
            alone = predictor(*concat_mols([examples[k]])).array
            for large in examples[2:]:
                batched = predictor(*concat_mols([examples[k], large])).array[:1]
                numpy.testing.assert_allclose(batched, alone, rtol=1e-5, atol=1e-6)


def test_gradient_check():
    numpy.random.seed(0)
    pre = ChempropPreprocessor()
    atoms, bonds = concat_mols([pre.get_input_features(pre.prepare_smiles_and_mol(Chem.MolFromSmiles(s))[1])
                                for s in ("CC(=O)O", "c1ccncc1")])
    atoms, bonds = atoms.astype(numpy.float64), bonds.astype(numpy.float64)
    with kusari.using_config("dtype", numpy.float64):
        model = DMPNN(hidden_channels=4, n_update_layers=3)
        model(atoms, bonds)   # initializes the lazy W_i and W_o in float64
    gy = numpy.random.randn(2, 4)
    kusari.gradient_check.check_backward(
        lambda a, b: model(a, b), (atoms, bonds), gy, params=tuple(model.params()),
        no_grads=(True, True), atol=1e-5, rtol=1e-4)


def test_bad_inputs_are_named():
    model = DMPNN(hidden_channels=4)
    with pytest.raises(ValueError, match=r"DMPNN: atom_features must be \(minibatch, N, atom_fdim\)"):
        model(numpy.zeros((2, 3), numpy.float32), numpy.zeros((2, 14, 3, 3), numpy.float32))
    with pytest.raises(TypeError, match="DMPNN: atom_features must be float features"):
        model(numpy.zeros((1, 2, 72), numpy.int32), numpy.zeros((1, 14, 2, 2), numpy.float32))
    bonds = numpy.zeros((1, 14, 2, 2), numpy.float32)
    bonds[0, 1, 0, 1] = 1
    with pytest.raises(ValueError, match="DMPNN: bond_features must be symmetric"):
        model(numpy.ones((1, 2, 72), numpy.float32), bonds)
