"""kusari.vision.utils.download_model / cached_download / extractall: ChainerCV's signatures on kusari's
verified, atomic downloader, offline (a loopback HTTP server, a mirror folder)."""
import hashlib
import importlib.util
import io
import os
import pathlib
import tarfile
import zipfile

import pytest

from kusari.dataset import DownloadError
from kusari.vision import utils

_spec = importlib.util.spec_from_file_location(
    "kusari_tests_download_fixtures",
    pathlib.Path(__file__).resolve().parents[2] / "core" / "dataset" / "download_fixtures.py")
_fixtures = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_fixtures)
dataset_root = _fixtures.dataset_root
http_server = _fixtures.http_server
no_internet = _fixtures.no_internet

WEIGHTS = b"\x93NUMPY pretend weights " * 100


@pytest.fixture
def home(tmp_path, monkeypatch, dataset_root):
    """An empty KUSARI_HOME (and dataset root) for the test."""
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


@pytest.fixture
def served(tmp_path, http_server):
    """A loopback server holding models/ssd300_voc0712.npz."""
    folder = tmp_path / "served" / "models"
    folder.mkdir(parents=True)
    (folder / "ssd300_voc0712.npz").write_bytes(WEIGHTS)
    return http_server(tmp_path / "served")


def test_download_model_keeps_the_file_under_kusari_home_models(home, served):
    url = served.url + "models/ssd300_voc0712.npz"
    path = utils.download_model(url)
    assert path == str(home / "models" / "ssd300_voc0712.npz")
    assert pathlib.Path(path).read_bytes() == WEIGHTS
    assert utils.download_model(url) == path            # cached: no second request
    assert served.hits == ["/models/ssd300_voc0712.npz"]
    assert [p.name for p in (home / "models").iterdir() if not p.name.endswith(".lock")] == ["ssd300_voc0712.npz"]


def test_download_model_verifies_a_given_checksum(home, served):
    url = served.url + "models/ssd300_voc0712.npz"
    good = hashlib.sha256(WEIGHTS).hexdigest()
    assert pathlib.Path(utils.download_model(url, sha256=good)).read_bytes() == WEIGHTS
    (home / "models" / "ssd300_voc0712.npz").write_bytes(b"corrupt")
    with pytest.warns(UserWarning, match="cached copy is corrupt"):
        path = utils.download_model(url, sha256=good)       # refetched
    assert pathlib.Path(path).read_bytes() == WEIGHTS



def test_download_model_refuses_a_file_that_fails_its_checksum(home, served):
    with pytest.raises(DownloadError, match="could not obtain a verified copy"):
        utils.download_model(served.url + "models/ssd300_voc0712.npz", sha256="0" * 64)
    assert not (home / "models" / "ssd300_voc0712.npz").exists()   # nothing unverified is left in place


def test_download_model_reads_the_mirror_offline(home, tmp_path, monkeypatch):
    mirror = tmp_path / "mirror"
    mirror.mkdir()
    (mirror / "fcis_resnet101_sbd.npz").write_bytes(WEIGHTS)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    path = utils.download_model("https://chainercv-models.preferred.jp/fcis_resnet101_sbd.npz")
    assert pathlib.Path(path).read_bytes() == WEIGHTS
    assert path == str(home / "models" / "fcis_resnet101_sbd.npz")


def test_download_model_offline_says_where_to_put_the_file(home):
    with pytest.raises(DownloadError, match=r"(?s)place it at:\n  .*models/yolo_v3_voc0712.npz"):
        utils.download_model("https://chainercv-models.preferred.jp/yolo_v3_voc0712.npz")


def test_download_model_needs_a_file_name(home):
    with pytest.raises(ValueError, match="download_model: the URL 'https://example.com/' does not end in a file name"):
        utils.download_model("https://example.com/")


def test_cached_download_caches_under_the_dataset_root(dataset_root, served):
    url = served.url + "models/ssd300_voc0712.npz"
    path = utils.cached_download(url)
    assert pathlib.Path(path).read_bytes() == WEIGHTS
    assert pathlib.Path(path).is_relative_to(dataset_root / "_dl_cache")
    assert utils.cached_download(url) == path and len(served.hits) == 1


def _archive(kind: str, tmp_path, members: dict) -> str:
    path = tmp_path / f"archive.{kind}"
    if kind == "zip":
        with zipfile.ZipFile(path, "w") as z:
            for name, data in members.items():
                z.writestr(name, data)
    else:
        with tarfile.open(path, "w:gz" if kind == "tgz" else "w") as t:
            for name, data in members.items():
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return str(path)


@pytest.mark.parametrize("kind, ext", [("zip", ".zip"), ("tar", ".tar"), ("tgz", ".tgz"), ("tgz", ".gz")])
def test_extractall(tmp_path, kind, ext):
    archive = _archive(kind, tmp_path, {"VOC/Annotations/000001.xml": b"<annotation/>", "VOC/list.txt": b"000001"})
    utils.extractall(archive, str(tmp_path / "out"), ext)
    assert (tmp_path / "out" / "VOC" / "Annotations" / "000001.xml").read_bytes() == b"<annotation/>"
    assert (tmp_path / "out" / "VOC" / "list.txt").read_bytes() == b"000001"


def test_extractall_keeps_tar_members_inside_the_destination(tmp_path):
    archive = _archive("tar", tmp_path, {"../escaped.txt": b"x"})
    with pytest.raises(tarfile.TarError):
        utils.extractall(archive, str(tmp_path / "out"), ".tar")
    assert not os.path.exists(tmp_path / "escaped.txt")


def test_extractall_refuses_unknown_kinds(tmp_path):
    with pytest.raises(ValueError, match=r"extractall: ext must be '.zip', '.tar', '.gz' or '.tgz', got '.rar'"):
        utils.extractall(str(tmp_path / "a.rar"), str(tmp_path), ".rar")
