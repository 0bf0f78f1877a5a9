"""Files written by real Chainer 7.8.1 (tools/make_chainer_fixture.py) load into the same kusari model."""
import pathlib

import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import optimizers, serializers

L = pytest.importorskip("kusari.links")
FIXTURES = pathlib.Path(__file__).parent / "fixtures"


class Net(kusari.Chain):
    """The architecture of the fixture script."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(1, 2, ksize=3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(2)
            self.embed = L.EmbedID(10, 4)
            self.fc = L.Linear(2 * 4 * 4 + 4, 3)

    def forward(self, x, ids):
        h = F.relu(self.bn(self.conv(x)))
        h = F.reshape(h, (x.shape[0], -1))
        e = F.sum(self.embed(ids), axis=1)
        return self.fc(F.concat([h, e], axis=1))


def _loss(model, x, ids):
    y = model(x, ids)
    return F.sum(y * y) / y.shape[0]


@pytest.fixture
def expected():
    with numpy.load(FIXTURES / "expected.npz") as f:
        return {k: f[k] for k in f.files}


def test_model_reproduces_chainer_output(expected):
    model = Net()
    serializers.load_npz(FIXTURES / "model.npz", model)
    with kusari.using_config("train", False):
        y = model(expected["x"], expected["ids"]).array
    assert y.dtype == numpy.float32
    numpy.testing.assert_allclose(y, expected["y"], rtol=1e-5, atol=1e-6)


def test_adam_state_continues_like_chainer(expected):
    model = Net()
    serializers.load_npz(FIXTURES / "model.npz", model)
    opt = optimizers.Adam(alpha=0.01).setup(model)
    serializers.load_npz(FIXTURES / "optimizer.npz", opt)
    assert opt.t == 2 and model.fc.W.update_rule.t == 2
    opt.update(_loss, model, expected["x"], expected["ids"])
    with kusari.using_config("train", False):
        y = model(expected["x"], expected["ids"]).array
    numpy.testing.assert_allclose(y, expected["y_step3"], rtol=1e-5, atol=1e-6)
    with numpy.load(FIXTURES / "model_step3.npz") as chainer_params:
        for name, param in model.namedparams():
            numpy.testing.assert_allclose(param.array, chainer_params[name.lstrip("/")],
                                          rtol=1e-5, atol=1e-7, err_msg=name)


def test_round_trip_through_kusari_keeps_chainer_keys(tmp_path):
    model = Net()
    serializers.load_npz(FIXTURES / "model.npz", model)
    serializers.save_npz(tmp_path / "again.npz", model)
    with numpy.load(FIXTURES / "model.npz") as a, numpy.load(tmp_path / "again.npz") as b:
        for key in a.files:
            assert key in b.files
            numpy.testing.assert_array_equal(a[key], b[key])
