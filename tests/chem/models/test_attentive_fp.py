"""AttentiveFP: gradients (float64 check), each molecule's output its own, inputs checked."""
import numpy
import pytest

pytest.importorskip("rdkit")
from rdkit import Chem  # noqa: E402

import kusari  # noqa: E402
from kusari.chem.dataset.converters import concat_mols  # noqa: E402
from kusari.chem.dataset.preprocessors import ChempropPreprocessor  # noqa: E402
from kusari.chem.models import AttentiveFP  # noqa: E402
from kusari.chem.models.prediction import set_up_predictor  # noqa: E402


def _examples(smiles):
    pre = ChempropPreprocessor()
    return [pre.get_input_features(pre.prepare_smiles_and_mol(Chem.MolFromSmiles(s))[1]) for s in smiles]


@pytest.mark.parametrize("dtype", [numpy.float64])
def test_gradient_check(dtype):
    numpy.random.seed(0)
    atoms, bonds = concat_mols(_examples(["CC(=O)O", "c1ccncc1", "[Na+].[Cl-]"]))
    atoms, bonds = atoms.astype(dtype), bonds.astype(dtype)
    with kusari.using_config("dtype", dtype):
        model = AttentiveFP(out_dim=2, hidden_channels=4, n_update_layers=2, n_timesteps=2)
        model(atoms, bonds)   # initializes the lazy embeddings
    gy = numpy.random.randn(3, 2)
    kusari.gradient_check.check_backward(lambda a, b: model(a, b), (atoms, bonds), gy,
                                         params=tuple(model.params()), no_grads=(True, True),
                                         atol=1e-5, rtol=1e-4)


def test_a_molecule_alone_and_batched():
    numpy.random.seed(0)
    predictor = set_up_predictor("attentivefp", 16, 3, 1)
    examples = _examples(["CCO", "[Na+].[Cl-]", "C" * 30, "OC1C(O)C(O)C(O)C(O)C1O"])
    with kusari.using_config("train", False):
        for k in (0, 1):
            alone = predictor(*concat_mols([examples[k]])).array
            for large in examples[2:]:
                batched = predictor(*concat_mols([examples[k], large])).array[:1]
                numpy.testing.assert_allclose(batched, alone, rtol=1e-5, atol=1e-6)
    assert alone.shape == (1, 1)


def test_every_parameter_learns():
    numpy.random.seed(0)
    model = AttentiveFP(out_dim=1, hidden_channels=8, n_update_layers=3, n_timesteps=2)
    atoms, bonds = concat_mols(_examples(["CCO", "c1ccccc1O"]))
    kusari.functions.sum(model(atoms, bonds)).backward()
    silent = [path for path, p in model.namedparams() if p.grad is None or not numpy.any(p.grad)]
    assert silent == []


def test_bad_arguments_are_named():
    with pytest.raises(ValueError, match="AttentiveFP: n_update_layers and n_timesteps must be >= 1"):
        AttentiveFP(out_dim=1, n_timesteps=0)
    with pytest.raises(ValueError, match=r"AttentiveFP: atom_features must be \(minibatch, N, atom_fdim\)"):
        AttentiveFP(out_dim=1)(numpy.zeros((1, 2, 72), numpy.float32), numpy.zeros((1, 14, 3, 3), numpy.float32))
