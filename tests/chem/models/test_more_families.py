"""RelGAT, GNNFiLM, WeaveNet, MEGNet and the GWM / CWLE / GWLE models on real preprocessor outputs.

Output shapes, float32 kept through forward and backward, and clear errors (model name, expected
and given shapes) on the outputs of the wrong preprocessor.
"""
import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari.chem import models
from kusari.chem.dataset.converters import concat_mols, megnet_converter
from kusari.chem.dataset.preprocessors import preprocess_method_dict
from rdkit import Chem

SMILES = ["CCO", "c1ccccc1O", "CC(=O)N"]
N_ATOMS = 7  # phenol, the largest molecule
SMALL = {"out_dim": 3, "hidden_channels": 6, "n_update_layers": 2}

# name -> (class, kwargs, preprocessor, wrong preprocessor)
CASES = {
    "relgat": (models.RelGAT, {**SMALL, "n_heads": 2}, "relgat", "nfp"),
    "relgat_concat_heads": (models.RelGAT, {**SMALL, "n_heads": 2, "concat_heads": True,
                                            "softmax_mode": "within"}, "relgat", "gin"),
    "gnnfilm": (models.GNNFiLM, SMALL, "gnnfilm", "ggnn"),
    "ggnn_gwm": (models.GGNN_GWM, SMALL, "ggnn_gwm", "nfp_gwm"),
    "nfp_gwm": (models.NFP_GWM, SMALL, "nfp_gwm", "ggnn_gwm"),
    "gin_gwm": (models.GIN_GWM, SMALL, "gin_gwm", "ggnn_gwm"),
    "rsgcn_gwm": (models.RSGCN_GWM, {**SMALL, "out_dim": 6}, "rsgcn_gwm", "ggnn_gwm"),
}
WLE = {"n_wle_types": 5}
for _base, _method, _wrong in [("GGNN", "ggnn", "nfp"), ("RelGAT", "relgat", "gin"),
                               ("RelGCN", "relgcn", "rsgcn"), ("GIN", "gin", "ggnn"),
                               ("NFP", "nfp", "relgcn"), ("RSGCN", "rsgcn", "ggnn")]:
    for _kind in ("CWLE", "GWLE"):
        _kwargs = {**SMALL, **WLE, **({"out_dim": 6} if _base == "RSGCN" else {})}
        CASES[f"{_base}_{_kind}"] = (getattr(models, f"{_base}_{_kind}"), _kwargs, _method,
                                     _wrong)


def batch(method, smiles=SMILES):
    preprocessor = preprocess_method_dict[method]()
    examples = []
    for s in smiles:
        _, mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(s))
        examples.append(tuple(preprocessor.get_input_features(mol)))
    return examples


def model_inputs(case, method):
    """The positional inputs of CASES[case]'s model from ``method``'s preprocessor."""
    inputs = list(concat_mols(batch(method)))
    if case.endswith("WLE"):
        # any labels below n_wle_types will do for shapes and dtypes
        labels = numpy.random.RandomState(0).randint(0, WLE["n_wle_types"],
                                                     inputs[0].shape[:2]).astype(numpy.int32)
        return [inputs[0], inputs[1], labels]
    return inputs


def check_backward_float32(model, y):
    y.grad = numpy.ones_like(y.array)
    y.backward()
    grads = {path: p.grad for path, p in model.namedparams() if p.grad is not None}
    assert grads
    assert all(g.dtype == numpy.float32 for g in grads.values())


@pytest.mark.parametrize("case", sorted(CASES))
def test_output_shape_and_float32(case):
    cls, kwargs, method, _ = CASES[case]
    inputs = model_inputs(case, method)
    model = cls(**kwargs)
    y = model(*[kusari.Variable(x) if x.dtype.kind == "f" else x for x in inputs])
    assert y.shape == (len(SMILES), kwargs["out_dim"])
    assert y.dtype == numpy.float32
    check_backward_float32(model, y)


@pytest.mark.parametrize("case", sorted(CASES))
def test_wrong_preprocessor_names_model_and_shapes(case):
    cls, kwargs, method, wrong = CASES[case]
    inputs = model_inputs(case, wrong)
    with pytest.raises(ValueError) as info:
        cls(**kwargs)(*inputs)
    message = str(info.value)
    assert message.startswith(f"{cls.__name__}:")
    assert str(tuple(inputs[1].shape)) in message
    right = model_inputs(case, method)
    assert str(tuple(right[1].shape)) in message


def test_weavenet_shape_float32_and_wrong_preprocessor():
    atoms, pairs = concat_mols(batch("weavenet"))
    model = models.WeaveNet(weave_channels=[5, 4], hidden_dim=6, n_atom=atoms.shape[1])
    y = model(atoms, kusari.Variable(pairs))
    assert y.shape == (len(SMILES), 4) and y.dtype == numpy.float32
    check_backward_float32(model, y)
    _, adj = concat_mols(batch("ggnn"))[:2]
    with pytest.raises(ValueError, match=r"WeaveNet: atom_x .*n_atom=20.*\(3, 7\)"):
        model(concat_mols(batch("ggnn"))[0], adj)
    with pytest.raises(ValueError, match=r"WeaveNet: pair_x .*\(3, 400, 'pair_ch'\).*\(3, 20, 20\)"):
        model(atoms, pairs.reshape(3, 20, 20, -1)[..., 0])


def megnet_batch():
    examples = [example + (numpy.zeros(1, numpy.float32),) for example in batch("megnet")]
    return list(megnet_converter(examples))[:-1]


def test_megnet_shape_float32_and_wrong_inputs():
    inputs = megnet_batch()
    model = models.MEGNet(out_dim=3, n_update_layers=2)
    y = model(*[kusari.Variable(x) if x.dtype.kind == "f" else x for x in inputs])
    assert y.shape == (len(SMILES), 3) and y.dtype == numpy.float32
    check_backward_float32(model, y)
    short = inputs[:3] + [inputs[3][:-1]] + inputs[4:]
    with pytest.raises(ValueError, match=rf"MEGNet: .*\({len(inputs[3])},\).*"
                                         rf"got .*\({len(inputs[3]) - 1},\)"):
        model(*short)
    atoms, adj = concat_mols(batch("nfp"))
    with pytest.raises(ValueError, match=r"MEGNet: .*got \(3, 7\), \(3, 7, 7\)"):
        model(atoms, adj, inputs[2], *inputs[3:])


def test_wle_labels_must_match_atoms():
    atoms, adj = concat_mols(batch("ggnn"))
    model = models.GGNN_CWLE(**SMALL, **WLE)
    with pytest.raises(ValueError, match=r"GGNN_CWLE: wle_array must have shape \(3, 7\).*None"):
        model(atoms, adj)
    with pytest.raises(ValueError, match=r"GGNN_CWLE: wle_array .*got \(3, 6\)"):
        model(atoms, adj, atoms[:, :6])


def test_gwm_needs_the_super_node():
    atoms, adj, _ = concat_mols(batch("ggnn_gwm"))
    with pytest.raises(ValueError, match=r"GGNN_GWM: super_node must have shape \(minibatch=3"):
        models.GGNN_GWM(**SMALL)(atoms, adj)


def test_unequal_hidden_channels_rejected_with_gwm():
    from kusari.chem.links import GGNNReadout, GGNNUpdate
    from kusari.chem.models.gwm import GWMGraphConvModel
    with pytest.raises(ValueError, match=r"GWMGraphConvModel: hidden_channels must all be equal"):
        GWMGraphConvModel([4, 6, 6], 3, GGNNUpdate, GGNNReadout)
