"""A molecule's prediction does not depend on the molecules batched with it (issue 31, item 6).

``concat_mols`` pads atom IDs with -1; every model family leaves padding atoms out of its
messages, attention and readouts, in prediction and in training.
"""
import functools

import numpy
import pytest

pytest.importorskip("rdkit")
from rdkit import Chem  # noqa: E402

import kusari  # noqa: E402
from kusari.chem.dataset.converters import concat_mols  # noqa: E402
from kusari.chem.dataset.preprocessors import preprocess_method_dict  # noqa: E402
from kusari.chem.models import MPNN, Regressor  # noqa: E402
from kusari.chem.models.prediction import GraphConvPredictor, set_up_predictor  # noqa: E402
from kusari.chem.models.prediction.set_up_predictor import available_methods  # noqa: E402

SMALL = ["CCO", "[Na+].[Cl-]"]          # ethanol; a salt: two atoms without neighbours
LARGE = ["OC1C(O)C(O)C(O)C(O)C1O", "C" * 30]   # inositol, a C30 alkane
# families whose inputs concat_mols pads (WeaveNet pads to a fixed size itself; MEGNet and CGCNN
# concatenate graphs; the sparse ones have their own converters)
METHODS = [m for m in available_methods() if m in preprocess_method_dict
           and m not in ("weavenet", "megnet", "relgcn_sparse", "gin_sparse")]


def _features(preprocessor, smiles):
    _, mol = preprocessor.prepare_smiles_and_mol(Chem.MolFromSmiles(smiles))
    features = preprocessor.get_input_features(mol)
    return features if isinstance(features, tuple) else (features,)


def _with_wle(examples):
    # a WLE label per atom (what apply_cwle_for_datasets adds), fixed for the test
    return [(*x, numpy.arange(len(x[0]), dtype=numpy.int32) % 5) for x in examples]


def _predictors():
    # dropout's draws change with the batch's shape, so it is off here
    cases = [(m, m, functools.partial(set_up_predictor, m, 8, 2, 1, conv_kwargs=(
        {"dropout_ratio": 0.0} if m.split("_")[0] in ("gin", "rsgcn") else None))) for m in METHODS]
    cases += [(f"{m}_{kind}", "nfp" if m == "nfp" else "ggnn",
               functools.partial(set_up_predictor, f"{m}_{kind}", 8, 2, 1, n_wle_types=10))
              for m in ("nfp", "ggnn", "relgat") for kind in ("cwle", "gwle")]
    for message in ("edgenet", "ggnn"):
        for readout in ("set2set", "ggnn"):
            cases.append((f"mpnn_{message}_{readout}", "ggnn", functools.partial(
                lambda m, r: GraphConvPredictor(MPNN(4, 8, 2, message_func=m, readout_func=r)),
                message, readout)))
    cases.append(("mpnn_gilmer", "ggnn", functools.partial(
        lambda: GraphConvPredictor(MPNN(4, 8, 2, pairing="bonds")))))
    return [pytest.param(make, preprocess, id=name) for name, preprocess, make in cases]


@pytest.mark.parametrize("make, preprocess", _predictors())
def test_prediction_is_the_same_alone_and_batched(make, preprocess):
    numpy.random.seed(0)
    predictor = make()
    wle = bool(make.args) and isinstance(make.args[0], str) and "wle" in make.args[0]
    model = Regressor(predictor)
    for small in SMALL:
        examples = [_features(preprocess_method_dict[preprocess](), s) for s in [small] + LARGE]
        if wle:
            examples = _with_wle(examples)
        alone = model.predict(examples[:1], converter=concat_mols)
        for large in examples[1:]:
            batched = model.predict([examples[0], large], converter=concat_mols)
            numpy.testing.assert_allclose(batched[:1], alone, rtol=1e-5, atol=1e-6, err_msg=small)
        # in training (the loss's graph), the small molecule's output and its gradient are its own
        with kusari.using_config("train", True):
            numpy.random.seed(1)
            y_alone = predictor(*concat_mols(examples[:1]))
            numpy.random.seed(1)
            y_batched = predictor(*concat_mols([examples[0], examples[2]]))
        numpy.testing.assert_allclose(y_batched.array[:1], y_alone.array, rtol=1e-5, atol=1e-6)


def test_chainer_chemistry_padding_gives_its_numerics():
    # padding=0 is Chainer Chemistry's batch: padding atoms are atoms of ID 0 and change the result
    numpy.random.seed(0)
    predictor = set_up_predictor("ggnn", 8, 2, 1)
    pre = preprocess_method_dict["ggnn"]()
    examples = [_features(pre, s) for s in ["CCO", "C" * 30]]
    with kusari.using_config("train", False):
        alone = predictor(*concat_mols(examples[:1])).array
        masked = predictor(*concat_mols(examples)).array[:1]
        unmasked = predictor(*concat_mols(examples, padding=0)).array[:1]
    numpy.testing.assert_allclose(masked, alone, rtol=1e-5, atol=1e-6)
    assert abs(float(unmasked[0, 0] - alone[0, 0])) > 1e-3


def test_a_mask_that_contradicts_the_padding_is_refused():
    numpy.random.seed(0)
    predictor = set_up_predictor("nfp", 8, 2, 1)
    atoms = numpy.array([[6, 8, -1]], numpy.int32)
    adj = numpy.zeros((1, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"NFP: is_real_node \(shape \(1, 3\)\) marks as real an atom"):
        predictor(atoms, adj, numpy.ones((1, 3), numpy.float32))
    consistent = predictor(atoms, adj, numpy.array([[1, 1, 0]], numpy.float32)).array
    numpy.testing.assert_allclose(consistent, predictor(atoms, adj).array, rtol=1e-6)


def test_negative_ids_inside_a_molecule_are_refused():
    numpy.random.seed(0)
    predictor = set_up_predictor("ggnn", 8, 2, 1)
    atoms = numpy.array([[6, -1, 8]], numpy.int32)
    adj = numpy.zeros((1, 4, 3, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"GGNN: atom_array has a negative ID before a real atom "
                                         r"in rows \[0\]"):
        predictor(atoms, adj)
