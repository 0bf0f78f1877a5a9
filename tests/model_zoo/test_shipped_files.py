"""The files shipped in model_zoo/weights: small, registered, and matching their registered sha256."""
import hashlib

import pytest

import kusari.model_zoo as zoo
from kusari.model_zoo import registry


def test_shipped_files_are_small_registered_and_verified():
    assert registry.shipped_file_problems() == []


def test_limit_is_a_few_megabytes():
    assert registry.SHIPPED_FILE_LIMIT == 5 * 2**20


@pytest.fixture
def local(monkeypatch, tmp_path):
    """An empty test-local registry; tmp_path is its shipped-weights folder."""
    monkeypatch.setattr(registry, "_REGISTRY", {})
    monkeypatch.setattr(registry, "SHIPPED_FILE_LIMIT", 100)
    return tmp_path


def _ship(folder, name, data):
    (folder / name).write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def test_each_problem_is_named(local):
    sha = _ship(local, "big.npz", b"x" * 101)
    zoo.register(zoo.Entry(name="big", architecture="a:B", file="big.npz", sha256=sha))
    _ship(local, "orphan.npz", b"o")
    zoo.register(zoo.Entry(name="missing", architecture="a:B", file="missing.npz", sha256="0" * 64))
    _ship(local, "changed.npz", b"new bytes")
    zoo.register(zoo.Entry(name="changed", loader="a:load", file="changed.npz", sha256="1" * 64))
    zoo.register(zoo.Entry(name="remote", architecture="a:B", file="remote.npz", sha256="2" * 64,
                           url="https://example.org/remote.npz"))
    problems = registry.shipped_file_problems(str(local))
    assert problems == [
        "big.npz: 101 bytes, over the 100 byte limit of shipped files; publish it and register it by url",
        "orphan.npz: shipped but registered by no entry",
        "missing: has no url and its file missing.npz is not shipped",
        f"changed: changed.npz has sha256 {hashlib.sha256(b'new bytes').hexdigest()}, registered {'1' * 64}",
    ]


def test_no_problem_when_all_is_well(local):
    sha = _ship(local, "ok.npz", b"ok")
    zoo.register(zoo.Entry(name="ok", architecture="a:B", file="ok.npz", sha256=sha))
    assert registry.shipped_file_problems(str(local)) == []
