"""GraphConvPredictor: Chainer Chemistry 0.7.1's saved predictor, its link names, the label scaler."""
import json
from pathlib import Path

import numpy
import pytest

pytest.importorskip("rdkit")

import kusari
from kusari import functions as F
from kusari import serializers
from kusari.chem.links import StandardScaler
from kusari.chem.models import MLP
from kusari.chem.models.prediction import GraphConvPredictor, set_up_predictor

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "models"


def _load_io(name: str) -> dict:
    path = FIXTURES / f"{name}.io.npz"
    if not path.exists():
        pytest.skip(f"Chainer Chemistry fixture {path} is missing")
    with numpy.load(path) as z:
        return {k: z[k] for k in z.files}


def test_predictor_matches_chainer_chemistry():
    # set_up_predictor('ggnn', ...) needs the GGNN family
    pytest.importorskip("kusari.chem.models.ggnn")
    io = _load_io("predictor")
    assert str(io["class"]) == "set_up_predictor"
    model = set_up_predictor(**json.loads(str(io["config"])))
    serializers.load_npz(str(FIXTURES / "predictor.model.npz"), model)  # strict
    atoms, adj = io["x/0"], kusari.Variable(io["x/1"])
    with kusari.using_config("train", False):
        y = model(atoms, adj)
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y.array, io["y"], rtol=1e-4, atol=1e-6)

    model.cleargrads()
    F.sum(y * io["gy"]).backward()
    expected = {k[len("grad"):]: v for k, v in io.items() if k.startswith("grad/")}
    got = {path: p.grad for path, p in model.namedparams() if p.grad is not None}
    assert sorted(got) == sorted(expected)
    for path, grad in expected.items():
        numpy.testing.assert_allclose(got[path], grad, rtol=1e-4, atol=1e-6, err_msg=path)
    numpy.testing.assert_allclose(adj.grad, io["gx/1"], rtol=1e-4, atol=1e-6)


class _Sum(kusari.Link):
    """Stands for a graph convolution: sums the atom features."""

    def forward(self, atoms, adj):
        return F.sum(atoms, axis=1)


def test_children_are_the_links_given():
    scaler = StandardScaler().fit(numpy.ones((3, 2), numpy.float32))
    with_all = GraphConvPredictor(_Sum(), MLP(out_dim=2, hidden_dim=4), scaler)
    assert sorted(name for name, _ in with_all.namedlinks(skipself=True)) == [
        "/graph_conv", "/label_scaler", "/mlp", "/mlp/l_out", "/mlp/layers", "/mlp/layers/0"]
    bare = GraphConvPredictor(_Sum())
    assert [name for name, _ in bare.namedlinks(skipself=True)] == ["/graph_conv"]
    assert bare.mlp is None and bare.label_scaler is None


def test_label_scaler_maps_outputs_back_to_label_units(tmp_path):
    rng = numpy.random.RandomState(0)
    labels = (rng.standard_normal((10, 2)) * [3.0, 0.5] + [10.0, -2.0]).astype(numpy.float32)
    scaler = StandardScaler().fit(labels)
    atoms = rng.standard_normal((4, 5, 3)).astype(numpy.float32)
    mlp = MLP(out_dim=2, hidden_dim=4)
    scaled = GraphConvPredictor(_Sum(), mlp, label_scaler=scaler)
    plain = GraphConvPredictor(_Sum(), mlp)
    y_scaled = scaled(atoms, None).array
    y_plain = plain(atoms, None).array
    assert y_scaled.dtype == numpy.float32
    numpy.testing.assert_allclose(y_scaled, y_plain * labels.std(axis=0) + labels.mean(axis=0),
                                  rtol=1e-5)

    # the scaler's statistics travel with the predictor's parameters
    path = str(tmp_path / "predictor.npz")
    serializers.save_npz(path, scaled)
    restored = GraphConvPredictor(_Sum(), MLP(out_dim=2, hidden_dim=4), label_scaler=StandardScaler())
    restored.mlp(numpy.zeros((1, 3), numpy.float32))  # initialize the lazy MLP before a strict load
    serializers.load_npz(path, restored)
    numpy.testing.assert_allclose(restored(atoms, None).array, y_scaled, rtol=1e-6)


def test_predict_applies_postprocess_without_a_graph():
    atoms = numpy.arange(12, dtype=numpy.float32).reshape(2, 3, 2)
    predictor = GraphConvPredictor(_Sum(), postprocess_fn=F.softmax)
    with kusari.using_config("train", True):
        y = predictor.predict(atoms, None)
    assert y.creator is None
    expected = numpy.exp(atoms.sum(axis=1))
    numpy.testing.assert_allclose(y.array, expected / expected.sum(axis=1, keepdims=True), rtol=1e-6)
    # without postprocess_fn, predict is the forward pass
    numpy.testing.assert_array_equal(GraphConvPredictor(_Sum()).predict(atoms, None).array,
                                     atoms.sum(axis=1))
