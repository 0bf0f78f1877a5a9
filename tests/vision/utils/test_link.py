"""prepare_pretrained_model and load_pretrained_weights: ChainerCV's pretrained_model= names resolved through
the model zoo, downloaded once from a loopback server (KUSARI_DOWNLOAD_MIRROR), verified and checked to fit the
architecture; wrong files refused."""
import importlib.util
import pathlib
import warnings

import numpy
import pytest

import kusari
import kusari.model_zoo as zoo
from kusari import initializers, serializers
from kusari.dataset.download import DownloadError
from kusari.vision.links import MobileNetV2, ResNet50, SEBlock
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures", pathlib.Path(__file__).parents[2] / "core" / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet

MOBILENET_FILE = "mobilenet_v2_depth_multiplier_{}_imagenet_converted_2019_05_13.npz"
MEAN = numpy.zeros((3, 1, 1), numpy.float32)
TABLE = {"base": {"param": {"n_class": 5, "mean": MEAN}, "overwritable": {"mean"}, "zoo": "mobilenetv2-1.0-imagenet"}}


@pytest.fixture
def home(tmp_path, monkeypatch):
    """KUSARI_HOME in tmp_path, no mirror."""
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR", raising=False)
    return tmp_path / "home"


@pytest.fixture
def mirror(tmp_path, monkeypatch, home, http_server):
    """A loopback server over tmp_path/www, set as KUSARI_DOWNLOAD_MIRROR."""
    www = tmp_path / "www"
    www.mkdir()
    server = http_server(www)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    return www, server


def _mobilenet_file(path, multiplier=1.0, seed=0):
    """A kusari-saved MobileNetV2 with 1001 classes and random weights (ChainerCV's layout)."""
    numpy.random.seed(seed)
    model = MobileNetV2(n_class=1001, depth_multiplier=multiplier)
    serializers.save_npz(str(path), model)
    return model


def test_name_resolves_through_the_zoo_and_is_downloaded_once(mirror, home):
    www, server = mirror
    trained = _mobilenet_file(www / MOBILENET_FILE.format(1.0))
    model = MobileNetV2(pretrained_model="imagenet")
    assert model.n_class == 1001
    numpy.testing.assert_array_equal(model.mean, numpy.full((3, 1, 1), 128, numpy.float32))
    numpy.testing.assert_array_equal(model.conv1.conv.conv.W.array, trained.conv1.conv.conv.W.array)
    assert (home / "models" / MOBILENET_FILE.format(1.0)).is_file()
    # the zoo key works as the name, and zoo.load builds the same model; nothing is downloaded again
    again = MobileNetV2(pretrained_model="mobilenetv2-1.0-imagenet")
    loaded = zoo.load("mobilenetv2-1.0-imagenet")
    for other in (again, loaded):
        numpy.testing.assert_array_equal(other.logits_conv.b.array, trained.logits_conv.b.array)
    assert server.hits == ["/" + MOBILENET_FILE.format(1.0)]


def test_a_file_of_another_architecture_is_refused_naming_the_keys(mirror):
    www, _ = mirror
    serializers.save_npz(str(www / MOBILENET_FILE.format(1.0)), SEBlock(32))
    with pytest.raises(ValueError) as info:
        MobileNetV2(pretrained_model="imagenet")
    message = str(info.value)
    assert message.startswith("MobileNetV2: ") and "does not hold the weights of this architecture" in message
    assert "missing keys: conv/bn/N, conv/bn/avg_mean" in message and "(" in message
    assert "unexpected keys: down/W, down/b, up/W, up/b" in message


def test_a_file_with_other_shapes_is_refused_naming_them(mirror):
    www, _ = mirror
    _mobilenet_file(www / MOBILENET_FILE.format(1.4), multiplier=1.0)  # the 1.0 network under the 1.4 name
    with pytest.raises(ValueError, match=r"MobileNetV2: .* shape mismatches: conv/bn/avg_mean: file \(32,\), "
                                         r"model \(48,\); conv/bn/avg_var"):
        MobileNetV2(pretrained_model="imagenet", depth_multiplier=1.4)


def test_a_corrupt_download_is_refused(mirror):
    www, _ = mirror
    (www / MOBILENET_FILE.format(1.0)).write_bytes(b"<html>not found</html>")
    with pytest.raises(DownloadError, match="not a readable NPZ archive"):
        MobileNetV2(pretrained_model="imagenet")


def test_offline_failure_says_where_to_put_the_file(home):
    with pytest.raises(DownloadError) as info:
        MobileNetV2(pretrained_model="imagenet")
    assert "https://chainercv-models.preferred.jp/" + MOBILENET_FILE.format(1.0) in str(info.value)
    assert str(home / "models" / MOBILENET_FILE.format(1.0)) in str(info.value)


def test_zoo_key_of_another_configuration_is_refused(home):
    with pytest.raises(ValueError, match=r"ResNet50: pretrained_model='resnet50-he-imagenet' holds the weights of "
                                         r"kusari.vision.links:ResNet50\(n_class=1000, arch='he'\), not of this "
                                         r"configuration; it accepts imagenet, resnet50-fb-imagenet"):
        ResNet50(pretrained_model="resnet50-he-imagenet")


def _small_file(path):
    """An intact NPZ (what prepare_pretrained_model verifies; fitting is load_pretrained_weights' job)."""
    serializers.save_npz(str(path), SEBlock(4, ratio=2))


def test_params_are_filled_checked_and_defaulted(mirror):
    www, _ = mirror
    _small_file(www / MOBILENET_FILE.format(1.0))
    param, path = prepare_pretrained_model({"n_class": None, "mean": None, "other": None}, "base", TABLE,
                                           {"other": 3}, owner="Model")
    assert param == {"n_class": 5, "mean": MEAN, "other": 3} and path.endswith(MOBILENET_FILE.format(1.0))
    mean = numpy.ones((3, 1, 1), numpy.float32)
    param, _ = prepare_pretrained_model({"n_class": 5, "mean": mean}, "base", TABLE, owner="Model")
    assert param["mean"] is mean  # overwritable
    with pytest.raises(ValueError, match="Model: pretrained_model='base' was trained with n_class=5, which "
                                         "conflicts with n_class=7"):
        prepare_pretrained_model({"n_class": 7}, "base", TABLE, owner="Model")
    with pytest.raises(ValueError, match="Model: other must be specified"):
        prepare_pretrained_model({"other": None}, None, TABLE, owner="Model")
    assert prepare_pretrained_model({"n_class": None}, None, TABLE, {"n_class": 9}) == ({"n_class": 9}, None)


def test_paths_and_unknown_names(home, tmp_path):
    path = tmp_path / "mine.npz"
    path.write_bytes(b"")
    assert prepare_pretrained_model({}, path, TABLE)[1] == str(path)
    with pytest.raises(ValueError, match=r"prepare_pretrained_model: pretrained_model='voc07' is neither a pretrained "
                                         r"model of this configuration \(base, mobilenetv2-1.0-imagenet\) nor an "
                                         r"existing file"):
        prepare_pretrained_model({}, "voc07", TABLE)
    with pytest.raises(TypeError, match="pretrained_model must be None, a name or a path, got int"):
        prepare_pretrained_model({}, 3, TABLE)


def test_chainercv_url_tables_are_downloaded_into_the_models_folder(mirror, home):
    www, server = mirror
    _small_file(www / "custom.npz")
    table = {"custom": {"param": {}, "url": "https://example.invalid/weights/custom.npz"}}
    _, path = prepare_pretrained_model({}, "custom", table)
    assert path == str(home / "models" / "custom.npz") and server.hits == ["/custom.npz"]


def test_cv2_trained_weights_warn_about_another_resize_backend(mirror):
    www, _ = mirror
    _small_file(www / MOBILENET_FILE.format(1.0))
    table = {"base": dict(TABLE["base"], cv2=True)}
    with kusari.using_config("cv_resize_backend", "PIL"), \
            pytest.warns(RuntimeWarning, match=r"Model: the pretrained model was trained with cv2 \(OpenCV\) as the "
                                               r"resize backend, but resize uses PIL here \(kusari.config."
                                               r"cv_resize_backend='PIL'\)"):
        prepare_pretrained_model({}, "base", table, owner="Model")
    for backend in ("cv2", None):   # None: OpenCV, which the tests have
        with kusari.using_config("cv_resize_backend", backend), warnings.catch_warnings():
            warnings.simplefilter("error")
            prepare_pretrained_model({}, "base", table, owner="Model")


def test_load_pretrained_weights_refuses_before_changing_anything(tmp_path):
    numpy.random.seed(1)
    source = SEBlock(32, ratio=4)
    serializers.save_npz(str(tmp_path / "se.npz"), source)
    target = SEBlock(32, ratio=8)
    before = target.down.W.array.copy()
    with pytest.raises(ValueError, match=r"SE: .*shape mismatches: down/W: file \(8, 32\), model \(4, 32\)"):
        load_pretrained_weights("SE", target, str(tmp_path / "se.npz"))
    numpy.testing.assert_array_equal(target.down.W.array, before)
    same = SEBlock(32, ratio=4)
    same.down.W.initializer = initializers.Zero()
    load_pretrained_weights("SE", same, str(tmp_path / "se.npz"))
    numpy.testing.assert_array_equal(same.up.W.array, source.up.W.array)
