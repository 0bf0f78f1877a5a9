"""CGCNN on crystal graphs: input checks, float32, set_up_predictor, gradient checks.

Its parity with Chainer Chemistry is checked with the other families in test_parity_more_families.py.
"""
import numpy
import pytest

import kusari
from kusari import gradient_check
from kusari.chem.dataset.converters import cgcnn_converter
from kusari.chem.models import CGCNN
from kusari.chem.models.prediction import set_up_predictor


def crystals(dtype=numpy.float32, sizes=(2, 3), n_nbr=2, seed=0):
    """cgcnn_converter's batch of random crystals: atom_feat, nbr_feat, atom_idx, nbr_idx, target."""
    rng = numpy.random.RandomState(seed)
    examples = [(rng.standard_normal((n, 3)).astype(dtype),
                 rng.uniform(0, 1, (n, n_nbr, 2)).astype(dtype),
                 rng.randint(0, n, (n, n_nbr)).astype(numpy.int32),
                 numpy.zeros(1, dtype)) for n in sizes]
    return cgcnn_converter(examples)


def test_float32_output_and_every_parameter_used():
    atom_feat, nbr_feat, atom_idx, nbr_idx, _ = crystals()
    model = CGCNN(out_dim=4, n_update_layers=2, n_atom_features=5)
    y = model(atom_feat, nbr_feat, atom_idx, nbr_idx)
    assert y.shape == (2, 4) and y.dtype == numpy.float32
    kusari.functions.sum(y).backward()
    assert all(p.grad is not None for _, p in model.namedparams())


def test_bad_inputs_name_the_model():
    atom_feat, nbr_feat, atom_idx, nbr_idx, _ = crystals()
    model = CGCNN(out_dim=4, n_update_layers=1, n_atom_features=5)
    with pytest.raises(ValueError, match=r"CGCNN: expected site_feat \(n_site, n_feat\), nbr_feat "
                                         r"\(n_site, n_nbr, n_nbr_feat\) and nbr_idx \(n_site, "
                                         r"n_nbr\), as cgcnn_converter gives them; got "
                                         r"site_feat.shape=\(5, 3\), nbr_feat.shape=\(4, 2, 2\)"):
        model(atom_feat, nbr_feat[:4], atom_idx, nbr_idx[:4])
    with pytest.raises(ValueError, match=r"CGCNN: nbr_idx must index the 5 sites"):
        model(atom_feat, nbr_feat, atom_idx, nbr_idx + 5)
    with pytest.raises(ValueError, match=r"CGCNNReadout: atom_idx\[1\]"):
        model(atom_feat, nbr_feat, [atom_idx[0], numpy.arange(3, 7)], nbr_idx)


def test_set_up_predictor_builds_cgcnn_with_a_head():
    atom_feat, nbr_feat, atom_idx, nbr_idx, _ = crystals()
    predictor = set_up_predictor("cgcnn", 6, 2, 3)
    assert isinstance(predictor.graph_conv, CGCNN)
    assert predictor.graph_conv.out_dim == 6 and len(predictor.graph_conv.crystal_convs) == 2
    assert predictor(atom_feat, nbr_feat, atom_idx, nbr_idx).shape == (2, 3)


@pytest.mark.parametrize("train", [False, True])
def test_gradient_check(train):
    dtype = numpy.float64
    atom_feat, nbr_feat, atom_idx, nbr_idx, _ = crystals(dtype)
    with kusari.using_config("dtype", dtype):
        model = CGCNN(out_dim=2, n_update_layers=2, n_atom_features=3)
        model(atom_feat, nbr_feat, atom_idx, nbr_idx)  # creates the lazy weights
    rng = numpy.random.RandomState(1)
    params = tuple(p for _, p in sorted(model.namedparams()))
    for p in params:  # away from the initial values (unit gammas, zero biases)
        p.array = rng.uniform(-1, 1, p.shape)
    gy = rng.standard_normal((2, 2))

    def f(atom_feat, nbr_feat):
        return model(atom_feat, nbr_feat, atom_idx, nbr_idx)

    with kusari.using_config("train", train):
        gradient_check.check_backward(f, (atom_feat, nbr_feat), gy, params=params,
                                      atol=1e-4, rtol=1e-4)
