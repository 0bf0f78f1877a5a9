"""Each model on real preprocessor outputs: output shape, float32 kept, clear errors on wrong inputs."""
import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari.chem.dataset.converters import concat_mols
from kusari.chem.dataset.preprocessors import preprocess_method_dict
from kusari.chem.models import GGNN, GIN, MLP, MPNN, NFP, RSGCN, RelGCN, SchNet
from rdkit import Chem

SMILES = ["CCO", "c1ccccc1O", "CC(=O)N"]
N_ATOMS = 7  # phenol, the largest molecule

# (model class, small constructor kwargs, the preprocessor whose outputs it reads)
CASES = {
    "nfp": (NFP, {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2}, "nfp"),
    "ggnn": (GGNN, {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2}, "ggnn"),
    "mpnn": (MPNN, {"out_dim": 3, "hidden_channels": 4, "n_update_layers": 2}, "ggnn"),
    "mpnn_ggnn": (MPNN, {"out_dim": 3, "hidden_channels": 4, "n_update_layers": 2,
                             "message_func": "ggnn", "readout_func": "ggnn"}, "ggnn"),
    "gin": (GIN, {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2}, "gin"),
    "rsgcn": (RSGCN, {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2}, "rsgcn"),
    "schnet": (SchNet, {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2, "num_rbf": 8}, "schnet"),
    "relgcn": (RelGCN, {"out_dim": 3, "hidden_channels": [6, 5]}, "relgcn"),
}
# the other layout: a single (N, N) adjacency for edge-typed models and vice versa
WRONG_PREPROCESSOR = {"nfp": "ggnn", "ggnn": "nfp", "mpnn": "nfp", "mpnn_ggnn": "gin",
                      "gin": "relgcn", "rsgcn": "ggnn", "schnet": "relgcn", "relgcn": "rsgcn"}


def batch(method):
    preprocessor = preprocess_method_dict[method]()
    examples = []
    for smiles in SMILES:
        _, mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(smiles))
        examples.append(tuple(preprocessor.get_input_features(mol)))
    return list(concat_mols(examples))


@pytest.mark.parametrize("case", sorted(CASES))
def test_output_shape_and_float32(case):
    cls, kwargs, method = CASES[case]
    atoms, adj = batch(method)[:2]
    assert atoms.dtype == numpy.int32 and adj.dtype == numpy.float32
    model = cls(**kwargs)
    adj_var = kusari.Variable(adj)
    y = model(atoms, adj_var)
    assert y.shape == (len(SMILES), kwargs["out_dim"])
    assert y.dtype == numpy.float32
    y.grad = numpy.ones_like(y.array)
    y.backward()
    for path, param in model.namedparams():
        if param.grad is not None:
            assert param.grad.dtype == numpy.float32, path


@pytest.mark.parametrize("case", sorted(CASES))
def test_wrong_preprocessor_names_model_and_both_shapes(case):
    cls, kwargs, _ = CASES[case]
    atoms, wrong_adj = batch(WRONG_PREPROCESSOR[case])[:2]
    with pytest.raises(ValueError) as info:
        cls(**kwargs)(atoms, wrong_adj)
    message = str(info.value)
    assert message.startswith(f"{cls.__name__}:")
    assert str(tuple(wrong_adj.shape)) in message
    expected = ((len(SMILES), N_ATOMS, N_ATOMS) if wrong_adj.ndim == 4
                else (len(SMILES), 4, N_ATOMS, N_ATOMS))
    assert str(expected) in message


@pytest.mark.parametrize("case", ["nfp", "ggnn", "gin"])
def test_int64_atom_ids_rejected(case):
    cls, kwargs, method = CASES[case]
    atoms, adj = batch(method)[:2]
    with pytest.raises(TypeError, match=f"{cls.__name__}: atom_array must be int32"):
        cls(**kwargs)(atoms.astype(numpy.int64), adj)


@pytest.mark.parametrize("case", ["nfp", "ggnn", "gin", "rsgcn"])
def test_float_features_skip_the_embedding(case):
    cls, kwargs, method = CASES[case]
    atoms, adj = batch(method)[:2]
    model = cls(**kwargs)
    # concat_mols pads atom IDs with -1; float features need the mask spelled out
    is_real_node = (atoms >= 0).astype(numpy.float32)
    h = model.embed(numpy.maximum(atoms, 0)).array
    # test mode: GIN and RSGCN drop out while training
    with kusari.using_config("train", False):
        numpy.testing.assert_allclose(model(h, adj, is_real_node).array, model(atoms, adj).array,
                                      rtol=1e-6)


@pytest.mark.parametrize("case", ["nfp", "ggnn"])
def test_concat_hidden_stacks_one_readout_per_layer(case):
    cls, kwargs, method = CASES[case]
    atoms, adj = batch(method)[:2]
    y = cls(concat_hidden=True, **kwargs)(atoms, adj)
    assert y.shape == (len(SMILES), kwargs["n_update_layers"] * kwargs["out_dim"])


def test_gin_node_embedding_returns_node_features():
    atoms, adj = batch("gin")[:2]
    h = GIN(out_dim=3, hidden_channels=6, out_channels=5, n_update_layers=2,
            node_embedding=True)(atoms, adj)
    assert h.shape == (len(SMILES), N_ATOMS, 5)


def test_rsgcn_adjacency_gets_no_gradient():
    atoms, adj = batch("rsgcn")[:2]
    adj_var = kusari.Variable(adj)
    kusari.functions.sum(RSGCN(out_dim=3, hidden_channels=6, n_update_layers=2)(atoms, adj_var)).backward()
    assert adj_var.grad is None


def test_relgcn_rejects_input_type_mismatch_and_rescale_adj_normalizes_columns():
    atoms, adj = batch("relgcn")[:2]
    with pytest.raises(TypeError, match="input_type='float'"):
        RelGCN(out_dim=3, hidden_channels=[6, 5], input_type="float")(atoms, adj)
    from kusari.chem.models.relgcn import rescale_adj
    scaled = rescale_adj(adj).array
    column_sums = scaled.sum(axis=(1, 2))
    has_neighbors = adj.sum(axis=(1, 2)) > 0
    numpy.testing.assert_allclose(column_sums[has_neighbors], 1, rtol=1e-6)
    assert scaled.dtype == numpy.float32


def test_mpnn_rejects_unknown_functions():
    with pytest.raises(ValueError, match="message_func"):
        MPNN(out_dim=1, message_func="gcn")
    with pytest.raises(ValueError, match="readout_func"):
        MPNN(out_dim=1, readout_func="mean")


def test_mlp_shapes_and_layer_count():
    x = numpy.random.RandomState(0).randn(5, 7).astype(numpy.float32)
    model = MLP(out_dim=2, hidden_dim=4, n_layers=3)
    y = model(x)
    assert y.shape == (5, 2) and y.dtype == numpy.float32
    assert len(model.layers) == 2
    with pytest.raises(ValueError, match="n_layers"):
        MLP(out_dim=2, n_layers=0)


def test_mlp_hidden_is_the_input_of_l_out():
    x = numpy.random.RandomState(0).randn(5, 7).astype(numpy.float32)
    model = MLP(out_dim=2, hidden_dim=4, n_layers=3)
    y = model(x).array
    h = x
    for layer in model.layers:  # an independent forward: relu(x W^T + b) per hidden layer
        h = numpy.maximum(h @ layer.W.array.T + layer.b.array, 0)
    numpy.testing.assert_allclose(model.hidden(x).array, h, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(y, h @ model.l_out.W.array.T + model.l_out.b.array,
                                  rtol=1e-5, atol=1e-6)
    assert MLP(out_dim=2, n_layers=1).hidden(x) is x
