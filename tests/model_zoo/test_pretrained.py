"""kusari.model_zoo.pretrained.resolve: the pretrained_model= convention."""
import hashlib

import numpy
import pytest

import kusari.links as L
import kusari.model_zoo as zoo
from kusari import serializers
from kusari.model_zoo import pretrained, registry
from kusari.model_zoo.models import LeNet5, MnistMLP

DEFAULTS = {"n_in": 784, "n_units": 800, "n_out": 10}


@pytest.fixture
def tiny_entry(monkeypatch, tmp_path):
    """A registry holding only 'tiny' (MnistMLP 6-4-3) whose weights are shipped in tmp_path."""
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "_WEIGHTS_DIR", str(tmp_path))
    numpy.random.seed(1)
    trained = MnistMLP(n_in=6, n_units=4, n_out=3)
    serializers.save_npz(str(tmp_path / "tiny.npz"), trained)
    sha = hashlib.sha256((tmp_path / "tiny.npz").read_bytes()).hexdigest()
    zoo.register(zoo.Entry(name="tiny", architecture="kusari.model_zoo.models:MnistMLP",
                           params={"n_in": 6, "n_units": 4, "n_out": 3}, file="tiny.npz", sha256=sha))
    return trained, tmp_path / "tiny.npz"


def test_none_uses_given_then_defaults():
    args, path = pretrained.resolve("M", None, {"n_in": None, "n_units": 5, "n_out": None}, DEFAULTS)
    assert args == {"n_in": 784, "n_units": 5, "n_out": 10} and path is None


def test_key_fixes_params(tiny_entry):
    args, path = pretrained.resolve("M", "tiny", {"n_in": None, "n_units": 4, "n_out": None}, DEFAULTS)
    assert args == {"n_in": 6, "n_units": 4, "n_out": 3}
    assert path == str(tiny_entry[1])


def test_key_conflicting_with_user_argument(tiny_entry):
    with pytest.raises(ValueError, match=r"MnistMLP: pretrained_model='tiny' was trained with "
                                         r"n_units=4, which conflicts with n_units=800"):
        MnistMLP(n_units=800, pretrained_model="tiny")


def test_constructor_loads_the_weights(tiny_entry):
    trained, _ = tiny_entry
    model = MnistMLP(pretrained_model="tiny")
    assert model.l1.W.shape == (4, 6)
    numpy.testing.assert_array_equal(model.l2.W.array, trained.l2.W.array)


def test_npz_path(tiny_entry):
    trained, path = tiny_entry
    model = MnistMLP(n_in=6, n_units=4, n_out=3, pretrained_model=str(path))
    numpy.testing.assert_array_equal(model.l1.b.array, trained.l1.b.array)


def test_unknown_key_or_missing_file(tiny_entry, tmp_path):
    with pytest.raises(ValueError, match=r"LeNet5: pretrained_model='nope' is neither a registered "
                                         r"model \(tiny\) nor an existing .npz file"):
        LeNet5(pretrained_model="nope")
    with pytest.raises(ValueError, match="neither"):
        LeNet5(pretrained_model=str(tmp_path / "missing.npz"))


def test_bad_type():
    with pytest.raises(TypeError, match="LeNet5: pretrained_model must be None, a registry key or a path, got int"):
        LeNet5(pretrained_model=3)


def test_check_fits_accepts_the_same_architecture(tmp_path):
    serializers.save_npz(str(tmp_path / "m.npz"), MnistMLP(n_in=6, n_units=4, n_out=3))
    pretrained.check_fits("M", MnistMLP(n_in=6, n_units=4, n_out=3), str(tmp_path / "m.npz"))
    # a parameter whose input size is deferred takes the file's shape: only its key is checked
    serializers.save_npz(str(tmp_path / "linear.npz"), L.Linear(6, 4))
    pretrained.check_fits("Linear", L.Linear(None, 4), str(tmp_path / "linear.npz"))
    with pytest.raises(ValueError, match=r"b: file \(4,\), model \(5,\)"):
        pretrained.check_fits("Linear", L.Linear(None, 5), str(tmp_path / "linear.npz"))


def test_check_fits_names_missing_unexpected_and_mismatched_keys(tmp_path):
    serializers.save_npz(str(tmp_path / "lenet.npz"), LeNet5())
    with pytest.raises(ValueError) as info:
        pretrained.check_fits("MnistMLP", MnistMLP(n_in=6, n_units=4, n_out=3), str(tmp_path / "lenet.npz"))
    assert str(info.value) == (
        f"MnistMLP: {tmp_path / 'lenet.npz'} does not hold the weights of this architecture (MnistMLP): "
        "missing keys: l1/W, l1/b, l2/W, l2/b; unexpected keys: conv1/W, conv1/b, conv2/W, conv2/b, fc3/W, fc3/b, "
        "fc4/W, fc4/b, ... (10 in all)")
    serializers.save_npz(str(tmp_path / "wide.npz"), MnistMLP(n_in=6, n_units=5, n_out=3))
    with pytest.raises(ValueError, match=r"shape mismatches: l1/W: file \(5, 6\), model \(4, 6\); l1/b: file "
                                         r"\(5,\), model \(4,\); l2/W: file \(3, 5\), model \(3, 4\)$"):
        pretrained.check_fits("MnistMLP", MnistMLP(n_in=6, n_units=4, n_out=3), str(tmp_path / "wide.npz"))


def test_check_fits_on_a_file_that_is_not_an_npz(tmp_path):
    (tmp_path / "x.npz").write_bytes(b"nope")
    with pytest.raises(ValueError, match="M: .*x.npz is not a readable NPZ file"):
        pretrained.check_fits("M", MnistMLP(n_in=6, n_units=4, n_out=3), str(tmp_path / "x.npz"))
