"""kusari.model_zoo.registry: lookup errors, verified shipped files, downloads, mirrors, offline failures."""
import functools
import hashlib
import http.server
import os
import threading

import numpy
import pytest

import kusari.model_zoo as zoo
from kusari import serializers
from kusari.dataset.download import DownloadError
from kusari.model_zoo import registry
from kusari.model_zoo.models import MnistMLP

GOOD = b"weights that match their checksum\n" * 50
GOOD_SHA = hashlib.sha256(GOOD).hexdigest()


@pytest.fixture
def isolated(monkeypatch, tmp_path):
    """An empty registry, an empty shipped-weights folder and KUSARI_HOME in tmp_path."""
    monkeypatch.setattr(registry, "_REGISTRY", {})
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    monkeypatch.setattr(registry, "_WEIGHTS_DIR", str(shipped))
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR", raising=False)
    return tmp_path


@pytest.fixture
def server(tmp_path):
    """A loopback HTTP server over tmp_path/www; yields (base URL, list of requested paths)."""
    root = tmp_path / "www"
    root.mkdir()
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def do_GET(self):
            requests.append(self.path)
            super().do_GET()

        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(root)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}", root, requests
    httpd.shutdown()
    httpd.server_close()


def _entry(name="m", url=None, sha=GOOD_SHA, **kw):
    return zoo.Entry(name=name, architecture="kusari.model_zoo.models:MnistMLP", params={},
                     file=f"{name}.npz", sha256=sha, url=url, **kw)


def _closed_port_url():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}/m.npz"


def test_unknown_name_lists_known_ones(isolated):
    zoo.register(_entry("alpha"))
    zoo.register(_entry("beta"))
    with pytest.raises(ValueError, match=r"unknown model 'gamma'; known models: alpha, beta"):
        zoo.info("gamma")
    with pytest.raises(ValueError, match="alpha, beta"):
        zoo.load("gamma")


def test_empty_registry_message(isolated):
    with pytest.raises(ValueError, match=r"known models: \(none\)"):
        zoo.info("x")


def test_name_must_be_str(isolated):
    with pytest.raises(TypeError, match="must be a str, got int"):
        zoo.info(3)


def test_list_info_register_unregister(isolated):
    zoo.register(_entry("b", dataset="MNIST", metric={"test_error": 0.5}))
    zoo.register(_entry("a"))
    assert zoo.list() == ["a", "b"]
    info = zoo.info("b")
    assert info["dataset"] == "MNIST" and info["metric"] == {"test_error": 0.5}
    assert info["sha256"] == GOOD_SHA and info["file"] == "b.npz"
    with pytest.raises(ValueError, match="'a' is already registered"):
        zoo.register(_entry("a"))
    zoo.register(_entry("a", dataset="other"), overwrite=True)
    assert zoo.info("a")["dataset"] == "other"
    zoo.unregister("a")
    assert zoo.list() == ["b"]
    with pytest.raises(TypeError, match="must be an Entry"):
        zoo.register({"name": "c"})


def test_entry_validation():
    with pytest.raises(ValueError, match="architecture must be 'module:callable'"):
        zoo.Entry(name="x", architecture="MnistMLP", file="x.npz", sha256=GOOD_SHA)
    with pytest.raises(ValueError, match="loader must be 'module:callable'"):
        zoo.Entry(name="x", loader="load_agent", file="x.npz", sha256=GOOD_SHA)
    with pytest.raises(ValueError, match="give exactly one of architecture .* got architecture=None, loader=None"):
        zoo.Entry(name="x", file="x.npz", sha256=GOOD_SHA)
    with pytest.raises(ValueError, match="give exactly one of architecture"):
        zoo.Entry(name="x", architecture="a:B", loader="a:load", file="x.npz", sha256=GOOD_SHA)
    with pytest.raises(ValueError, match=r"file must be a bare '.npz' file name, got 'agent/x.npz'"):
        zoo.Entry(name="x", architecture="a:B", file="agent/x.npz", sha256=GOOD_SHA)
    with pytest.raises(ValueError, match="sha256 hex digest"):
        zoo.Entry(name="x", architecture="a:B", params={}, file="x.npz", sha256="abc")
    with pytest.raises(ValueError, match=r"commit '0205f30\+dirty' is of a modified tree"):
        zoo.Entry(name="x", architecture="a:B", file="x.npz", sha256=GOOD_SHA, commit="0205f30+dirty")


def test_shipped_file_is_used_when_it_verifies(isolated):
    zoo.register(_entry(url=_closed_port_url()))
    (isolated / "shipped" / "m.npz").write_bytes(GOOD)
    assert zoo.weights_path("m") == str(isolated / "shipped" / "m.npz")


def test_corrupt_cached_copy_is_rejected_and_downloaded_again(isolated, server):
    base, root, requests = server
    (root / "m.npz").write_bytes(GOOD)
    zoo.register(_entry(url=base + "/m.npz"))
    cached = isolated / "home" / "models" / "m.npz"
    cached.parent.mkdir(parents=True)
    cached.write_bytes(b"truncated or tampered")
    with pytest.warns(UserWarning, match="corrupt"):
        path = zoo.weights_path("m")
    assert path == str(cached)
    assert cached.read_bytes() == GOOD
    assert requests == ["/m.npz"]
    assert zoo.weights_path("m") == str(cached)  # verified cache: no second request
    assert requests == ["/m.npz"]


def test_corrupt_shipped_copy_falls_back_to_download(isolated, server):
    base, root, requests = server
    (root / "m.npz").write_bytes(GOOD)
    (isolated / "shipped" / "m.npz").write_bytes(b"bad")
    zoo.register(_entry(url=base + "/m.npz"))
    path = zoo.weights_path("m")
    assert path == str(isolated / "home" / "models" / "m.npz")
    assert open(path, "rb").read() == GOOD and requests == ["/m.npz"]


def test_download_with_wrong_content_is_rejected(isolated, server):
    base, root, _ = server
    (root / "m.npz").write_bytes(b"not the published file")
    zoo.register(_entry(url=base + "/m.npz"))
    with pytest.raises(DownloadError, match="expected " + GOOD_SHA):
        zoo.weights_path("m")
    assert not (isolated / "home" / "models" / "m.npz").exists()


def test_local_mirror_dir_is_used(isolated, monkeypatch):
    mirror = isolated / "mirror"
    mirror.mkdir()
    (mirror / "m.npz").write_bytes(GOOD)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    zoo.register(_entry(url=_closed_port_url()))
    assert open(zoo.weights_path("m"), "rb").read() == GOOD


def test_offline_failure_says_where_to_put_the_file(isolated):
    zoo.register(_entry(url=_closed_port_url()))
    target = os.path.join(str(isolated), "home", "models", "m.npz")
    with pytest.raises(DownloadError) as info:
        zoo.weights_path("m")
    assert "place it at" in str(info.value) and target in str(info.value)


def test_entry_without_url_says_where_to_put_the_file(isolated):
    zoo.register(_entry())
    target = os.path.join(str(isolated), "home", "models", "m.npz")
    with pytest.raises(FileNotFoundError, match="place a copy with sha256 " + GOOD_SHA) as info:
        zoo.weights_path("m")
    assert target in str(info.value)
    os.makedirs(os.path.dirname(target))
    with open(target, "wb") as f:
        f.write(GOOD)
    assert zoo.weights_path("m") == target


def test_load_builds_the_architecture_with_the_entry_params_and_weights(isolated):
    numpy.random.seed(0)
    trained = MnistMLP(n_in=6, n_units=4, n_out=3)
    path = isolated / "shipped" / "tiny.npz"
    serializers.save_npz(str(path), trained)
    sha = hashlib.sha256(path.read_bytes()).hexdigest()
    zoo.register(zoo.Entry(name="tiny", architecture="kusari.model_zoo.models:MnistMLP",
                           params={"n_in": 6, "n_units": 4, "n_out": 3}, file="tiny.npz", sha256=sha))
    model = zoo.load("tiny")
    assert isinstance(model, MnistMLP)
    for name, param in trained.namedparams():
        numpy.testing.assert_array_equal(dict(model.namedparams())[name].array, param.array)


def load_pair(path, scale):
    """A loader for the test entries below: not a network, a (name, array) pair built from the file."""
    with numpy.load(path) as f:
        return "pair", f["values"] * scale


def _pair_file(path):
    numpy.savez(path, values=numpy.arange(3, dtype=numpy.float32))
    return hashlib.sha256(open(path, "rb").read()).hexdigest()


def test_load_of_a_loader_entry_passes_the_verified_file_and_params(isolated):
    sha = _pair_file(str(isolated / "shipped" / "pair.npz"))
    zoo.register(zoo.Entry(name="pair", loader=f"{__name__}:load_pair", params={"scale": 2.0},
                           file="pair.npz", sha256=sha))
    name, values = zoo.load("pair")
    assert name == "pair" and values.tolist() == [0.0, 2.0, 4.0] and values.dtype == numpy.float32
    with pytest.raises(ValueError, match="MnistMLP: pretrained_model='pair' is not a network's weights"):
        MnistMLP(pretrained_model="pair")


def test_a_large_loader_entry_is_downloaded_into_kusari_home(isolated, server):
    base, root, requests = server
    sha = _pair_file(str(root / "pair.npz"))
    zoo.register(zoo.Entry(name="pair", loader=f"{__name__}:load_pair", params={"scale": 1.0},
                           file="pair.npz", sha256=sha, url=base + "/pair.npz"))
    assert zoo.load("pair")[1].tolist() == [0.0, 1.0, 2.0]
    assert requests == ["/pair.npz"]
    assert zoo.weights_path("pair") == str(isolated / "home" / "models" / "pair.npz")
    zoo.load("pair")
    assert requests == ["/pair.npz"]  # verified cache: no second request


def _unverified(name="u", url=None):
    return zoo.Entry(name=name, architecture="kusari.model_zoo.models:MnistMLP", params={}, file=f"{name}.npz",
                     url=url, no_checksum="the publisher gives none")


def test_entry_without_checksum_must_say_why_and_have_a_url():
    with pytest.raises(ValueError, match=r"an entry without sha256 must be downloaded \(url\) and say why it has "
                                         r"no checksum \(no_checksum\), got url='http://x/u.npz', no_checksum=''"):
        zoo.Entry(name="u", architecture="a:B", file="u.npz", url="http://x/u.npz")
    with pytest.raises(ValueError, match="got url=None, no_checksum='none published'"):
        zoo.Entry(name="u", architecture="a:B", file="u.npz", no_checksum="none published")
    with pytest.raises(ValueError, match="no_checksum is for entries without sha256"):
        zoo.Entry(name="u", architecture="a:B", file="u.npz", sha256=GOOD_SHA, no_checksum="why")
    entry = _unverified(url="http://x/u.npz")
    assert entry.sha256 is None and zoo.info  # registrable as is


def test_entry_without_checksum_is_downloaded_once_as_an_intact_npz(isolated, server):
    base, root, requests = server
    numpy.savez(root / "u.npz", values=numpy.arange(4.0))
    zoo.register(_unverified(url=base + "/u.npz"))
    path = zoo.weights_path("u")
    assert path == str(isolated / "home" / "models" / "u.npz")
    assert open(path, "rb").read() == (root / "u.npz").read_bytes()
    assert zoo.weights_path("u") == path and requests == ["/u.npz"]
    assert zoo.info("u")["no_checksum"] == "the publisher gives none"


@pytest.mark.parametrize("content, why", [(b"<html>503</html>", "not a readable NPZ archive"),
                                          (None, "fails its CRC check")])
def test_entry_without_checksum_refuses_a_damaged_download(isolated, server, content, why):
    base, root, _ = server
    if content is None:  # a zip whose member is damaged after its header
        numpy.savez(root / "u.npz", values=numpy.arange(1000.0))
        data = bytearray((root / "u.npz").read_bytes())
        data[200] ^= 0xFF
        content = bytes(data)
    (root / "u.npz").write_bytes(content)
    zoo.register(_unverified(url=base + "/u.npz"))
    with pytest.raises(DownloadError, match=why):
        zoo.weights_path("u")
    assert not (isolated / "home" / "models" / "u.npz").exists()


def test_check_readable_npz_wants_npy_members(tmp_path):
    import zipfile
    with zipfile.ZipFile(tmp_path / "x.npz", "w") as archive:
        archive.writestr("readme.txt", "hello")
    with pytest.raises(ValueError, match=r"not an NPZ archive \(members: \['readme.txt'\]\)"):
        registry.check_readable_npz(str(tmp_path / "x.npz"))


def test_a_shipped_file_needs_a_checksum(isolated):
    zoo.register(_unverified(url="http://x/u.npz"))
    (isolated / "shipped" / "u.npz").write_bytes(GOOD)
    assert registry.shipped_file_problems(str(isolated / "shipped")) == [
        "u: u.npz is shipped but the entry has no sha256; register the shipped file's checksum"]


def test_an_agent_without_the_rl_extra_names_the_extra():
    """Without gymnasium, loading a zoo agent says which extra to install (not a bare 'No module named')."""
    import subprocess
    import sys
    import textwrap
    code = textwrap.dedent("""
        import importlib.util, sys
        real = importlib.util.find_spec
        importlib.util.find_spec = lambda name, *a: None if name == "gymnasium" else real(name, *a)
        sys.modules["gymnasium"] = None   # and `import gymnasium` fails, as where it is not installed
        import kusari.model_zoo
        try:
            kusari.model_zoo.load("dqn-cartpole")
        except ImportError as e:
            print(e)
    """)
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ("kusari.rl needs gymnasium, which is not installed; "
                                     "install it with: pip install 'kusari[rl]'")
