"""Saliency calculators against Chainer Chemistry 0.7.1 (tests/chem/fixtures/saliency.npz).

The fixture's model is the GGNN model fixture with a fixed Linear(4, 1) head; every calculator
explains the atom embedding (a VariableMonitorLinkHook on ``ggnn.embed``) of three molecules served
in batches of two (see tests/chem/fixtures/README.md).
"""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import links as L
from kusari import serializers
from kusari.chem import models
from kusari.chem.dataset.converters import concat_mols as _concat_mols
from kusari.chem.saliency import calculator as calculators

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SALIENCY = FIXTURES / "saliency.npz"
CASES = ["gradient", "gradient_multiply_target", "integrated_gradients", "occlusion", "smoothgrad"]



def concat_mols(batch, device=None):
    """Chainer Chemistry's batches: padding atoms are atom ID 0 and count as atoms."""
    return _concat_mols(batch, device, padding=0)


pytestmark = pytest.mark.skipif(not SALIENCY.exists(), reason="tests/chem/fixtures/saliency.npz is missing")


@pytest.fixture(scope="module")
def fixture():
    with numpy.load(SALIENCY) as z:
        return {k: z[k] for k in z.files}


class Regressor(kusari.Chain):
    def __init__(self, head_W, head_b):
        super().__init__()
        with self.init_scope():
            self.ggnn = models.GGNN(out_dim=4, hidden_channels=8, n_update_layers=2, n_atom_types=10)
            self.head = L.Linear(4, 1, initialW=head_W, initial_bias=head_b)

    def forward(self, atom_array, adj):
        return self.head(self.ggnn(atom_array, adj))


@pytest.fixture(scope="module")
def model(fixture):
    model = Regressor(fixture["head/W"], fixture["head/b"])
    serializers.load_npz(str(FIXTURES / "models" / "GGNN.model.npz"), model.ggnn)  # strict
    return model


@pytest.fixture(scope="module")
def data(fixture):
    return [(fixture[f"data/{i}/0"], fixture[f"data/{i}/1"]) for i in range(len(fixture["smiles"]))]


def run_case(model, data, call):
    cls = getattr(calculators, call["calculator"])
    hook = calculators.VariableMonitorLinkHook(model.ggnn.embed, timing="post")
    calculator = cls(model, target_extractor=hook, **call["kwargs"])
    compute_kwargs = dict(call["compute"], converter=concat_mols)
    if "noise_sampler" in compute_kwargs:
        assert compute_kwargs["noise_sampler"] == "GaussianNoiseSampler()"
        compute_kwargs["noise_sampler"] = calculators.GaussianNoiseSampler()
    numpy.random.seed(call["numpy.random.seed"])
    return calculator, calculator.compute(data, **compute_kwargs)


def test_model_output(fixture, model, data):
    with kusari.using_config("train", False):
        y = model(*concat_mols(data))
    numpy.testing.assert_allclose(y.array, fixture["y"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", CASES)
def test_compute_and_aggregate(fixture, model, data, case):
    calculator, saliency = run_case(model, data, json.loads(str(fixture[case + "/call"])))
    expected = fixture[case + "/saliency"]
    assert saliency.dtype == expected.dtype and saliency.shape == expected.shape
    numpy.testing.assert_allclose(saliency, expected, rtol=1e-5, atol=1e-6)
    for method in ("raw", "abs", "square"):
        for ch_axis in (None, 3):
            aggregated = calculator.aggregate(saliency, method=method, ch_axis=ch_axis)
            reference = fixture[f"{case}/aggregate/{method}/{ch_axis}"]
            assert aggregated.dtype == reference.dtype
            numpy.testing.assert_allclose(aggregated, reference, rtol=1e-5, atol=1e-6,
                                          err_msg=f"{method}, ch_axis={ch_axis}")
    assert not model.ggnn.embed.local_link_hooks  # compute detaches its extractor
