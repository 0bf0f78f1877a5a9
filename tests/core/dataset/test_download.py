import concurrent.futures
import gzip
import hashlib
import multiprocessing
import os
import stat
import sys

import numpy
import pytest

from kusari.dataset import download
from kusari.dataset.download import Checksum, ChecksumError, DownloadError, cached_download

# FIPS 180-2 / RFC 1321 test vectors for b"abc"
ABC_SHA256 = "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
ABC_MD5 = "900150983cd24fb0d6963f7d28e17f72"
PAYLOAD = bytes(range(256)) * 64


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _write(path, data: bytes):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)
    return str(path)


def _leftovers(directory):
    """Hidden files: the temporary files of writes in progress."""
    return sorted(name for name in os.listdir(directory) if name.startswith("."))


# -- dataset root --------------------------------------------------------------------------------
def test_dataset_root_from_environment(monkeypatch, tmp_path):
    download.set_dataset_root(None)
    monkeypatch.delenv("KUSARI_DATASET_ROOT", raising=False)
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    assert download.get_dataset_root() == str(tmp_path / "home" / "dataset")
    monkeypatch.setenv("KUSARI_DATASET_ROOT", str(tmp_path / "elsewhere"))
    assert download.get_dataset_root() == str(tmp_path / "elsewhere")
    monkeypatch.delenv("KUSARI_HOME")
    monkeypatch.delenv("KUSARI_DATASET_ROOT")
    assert download.get_dataset_root() == os.path.expanduser(os.path.join("~", ".kusari", "dataset"))


def test_set_dataset_root_wins_over_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_DATASET_ROOT", str(tmp_path / "env"))
    download.set_dataset_root(tmp_path / "explicit")
    try:
        assert download.get_dataset_root() == str(tmp_path / "explicit")
    finally:
        download.set_dataset_root(None)
    assert download.get_dataset_root() == str(tmp_path / "env")


def test_get_dataset_directory(dataset_root):
    path = download.get_dataset_directory("pfnet/kusari/mnist")
    assert path == str(dataset_root / "pfnet" / "kusari" / "mnist")
    assert os.path.isdir(path)
    lazy = download.get_dataset_directory("other", create_directory=False)
    assert lazy == str(dataset_root / "other") and not os.path.exists(lazy)


# -- Checksum ------------------------------------------------------------------------------------
def test_checksum_known_vectors(tmp_path):
    path = _write(tmp_path / "abc", b"abc")
    Checksum(ABC_SHA256)(path)
    Checksum(ABC_MD5.upper(), "md5")(path)
    with pytest.raises(ChecksumError, match=f"md5 of the file is {ABC_MD5}, expected 0{{31}}1"):
        Checksum("0" * 31 + "1", "md5")(path)


def test_checksum_of_decompressed_content_ignores_the_gzip_wrapper(tmp_path):
    a = _write(tmp_path / "a.gz", gzip.compress(b"abc", mtime=0))
    b = _write(tmp_path / "b.gz", gzip.compress(b"abc", compresslevel=1, mtime=12345))
    assert _sha256(open(a, "rb").read()) != _sha256(open(b, "rb").read())
    check = Checksum(ABC_MD5, "md5", decompress="gzip")
    check(a)
    check(b)
    truncated = _write(tmp_path / "t.gz", gzip.compress(PAYLOAD)[:-20])
    with pytest.raises(ChecksumError, match="t.gz: cannot be read as the gunzipped content"):
        Checksum(_sha256(PAYLOAD), decompress="gzip")(truncated)


@pytest.mark.parametrize("args, message", [
    (("abc",), "'abc' is not a sha256 hex digest"),
    ((ABC_MD5, "sha256"), "is not a sha256 hex digest"),
    ((ABC_MD5, "nope"), "unknown hash algorithm 'nope'"),
    ((ABC_MD5, "md5", "bz2"), "decompress must be None or 'gzip', got 'bz2'"),
])
def test_checksum_rejects_bad_arguments(args, message):
    with pytest.raises(ValueError, match=message):
        Checksum(*args)


# -- cached_download -----------------------------------------------------------------------------
def test_download_over_http_then_cached(dataset_root, http_server, tmp_path):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    target = str(dataset_root / "ds" / "data.bin")
    path = cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD), path=target)
    assert path == target and open(path, "rb").read() == PAYLOAD
    assert cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD), path=target) == target
    assert server.hits == ["/data.bin"]
    assert _leftovers(dataset_root / "ds") == []


def test_default_path_is_under_the_download_cache(dataset_root, http_server, tmp_path):
    server = http_server(_write(tmp_path / "site" / "f.txt", b"abc").rsplit(os.sep, 1)[0])
    url = server.url + "f.txt"
    path = cached_download(url)
    digest = hashlib.md5(url.encode()).hexdigest()
    assert path == str(dataset_root / "_dl_cache" / digest / "f.txt")
    assert open(path, "rb").read() == b"abc"


def test_checksum_mismatch_leaves_nothing_behind(dataset_root, http_server, tmp_path):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    target = dataset_root / "ds" / "data.bin"
    with pytest.raises(DownloadError) as info:
        cached_download(server.url + "data.bin", sha256=ABC_SHA256, path=str(target))
    message = str(info.value)
    assert f"sha256 of the file is {_sha256(PAYLOAD)}, expected {ABC_SHA256}" in message
    assert str(target) in message
    assert not target.exists() and _leftovers(dataset_root / "ds") == []


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_corrupt_cached_copy_is_replaced(dataset_root, http_server, tmp_path, damage):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    target = _write(dataset_root / "ds" / "data.bin", b"garbage" if damage == "garbage" else PAYLOAD[:100])
    with pytest.warns(UserWarning, match="cached copy is corrupt"):
        path = cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD), path=target)
    assert open(path, "rb").read() == PAYLOAD
    assert server.hits == ["/data.bin"]


def test_offline_failure_names_the_url_and_where_to_put_the_file(dataset_root):
    url = "https://example.com/files/train.tar.gz"  # the no_internet fixture refuses it
    with pytest.raises(DownloadError) as info:
        cached_download(url, sha256=ABC_SHA256, path=str(dataset_root / "ds" / "train.tar.gz"))
    message = str(info.value)
    assert url in message and "tests are offline" in message
    assert f"place it at:\n  {dataset_root / 'ds' / 'train.tar.gz'}\n" in message
    assert "ds/train.tar.gz or train.tar.gz" in message


def test_unreachable_port_fails_fast(dataset_root, http_server, tmp_path):
    server = http_server(tmp_path)
    url = server.url + "missing.bin"
    server.close()
    with pytest.raises(DownloadError, match="missing.bin"):
        cached_download(url, path=str(dataset_root / "missing.bin"))


def test_transient_errors_are_retried(dataset_root, http_server, tmp_path, fast_retries):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    server.set(fail_next=1, truncate_next=1)
    path = cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD), path=str(dataset_root / "d"),
                           retries=2)
    assert open(path, "rb").read() == PAYLOAD
    assert len(server.hits) == 3
    server.set(fail_next=5)
    with pytest.raises(DownloadError, match="HTTP Error 503"):
        cached_download(server.url + "data.bin", path=str(dataset_root / "e"), retries=1)
    assert len(server.hits) == 5  # two more attempts


def test_not_found_is_not_retried(dataset_root, http_server, tmp_path, fast_retries):
    server = http_server(tmp_path)
    with pytest.raises(DownloadError, match="HTTP Error 404"):
        cached_download(server.url + "nothing.bin", path=str(dataset_root / "n"), retries=3)
    assert server.hits == ["/nothing.bin"]


def test_mirror_folder_is_consulted_first(dataset_root, monkeypatch, tmp_path):
    mirror = tmp_path / "mirror"
    _write(mirror / "ds" / "a.bin", b"abc")          # by path relative to the dataset root
    _write(mirror / "b.bin", b"abc")                  # by bare file name
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    a = cached_download("https://example.com/a.bin", sha256=ABC_SHA256, path=str(dataset_root / "ds" / "a.bin"))
    b = cached_download("https://example.com/b.bin", sha256=ABC_SHA256, path=str(dataset_root / "ds" / "b.bin"))
    assert open(a, "rb").read() == b"abc" and open(b, "rb").read() == b"abc"
    assert _leftovers(dataset_root / "ds") == []


def test_one_mirror_serves_each_dataset_from_its_folder(dataset_root, monkeypatch, tmp_path, http_server):
    """A file cached under a nested folder (pfnet/chainer/molnet) is found in the dataset's own folder of
    the mirror (moleculenet/), in a local mirror and behind a URL prefix; the error names every place."""
    mirror = tmp_path / "mirror"
    _write(mirror / "moleculenet" / "a.csv", b"abc")
    _write(mirror / "mnist" / "a.csv", b"not abc")   # another dataset's file of the same name is not taken
    target = str(dataset_root / "pfnet" / "chainer" / "molnet" / "a.csv")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    path = cached_download("https://example.com/a.csv", sha256=ABC_SHA256, path=target, mirror_folder="moleculenet")
    assert open(path, "rb").read() == b"abc"
    os.remove(path)
    server = http_server(mirror)
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    cached_download("https://example.com/a.csv", sha256=ABC_SHA256, path=target, mirror_folder="moleculenet")
    assert server.hits == ["/pfnet/chainer/molnet/a.csv", "/moleculenet/a.csv"]
    with pytest.raises(DownloadError) as info:
        cached_download("https://127.0.0.1:1/b.csv", path=target.replace("a.csv", "b.csv"), retries=0,
                        mirror_folder="moleculenet")
    assert "holds it as pfnet/chainer/molnet/b.csv or moleculenet/b.csv or b.csv." in str(info.value)


def test_mirror_copy_failing_verification_is_skipped(dataset_root, monkeypatch, tmp_path, http_server):
    mirror = tmp_path / "mirror"
    _write(mirror / "ds" / "a.bin", b"not abc")
    _write(mirror / "a.bin", b"abc")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    path = cached_download("https://example.com/a.bin", sha256=ABC_SHA256, path=str(dataset_root / "ds" / "a.bin"))
    assert open(path, "rb").read() == b"abc"


def test_mirror_url_prefix(dataset_root, monkeypatch, http_server, tmp_path):
    _write(tmp_path / "site" / "ds" / "a.bin", b"abc")
    server = http_server(tmp_path / "site")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", server.url)
    path = cached_download("https://example.com/x/a.bin", sha256=ABC_SHA256, path=str(dataset_root / "ds" / "a.bin"))
    assert open(path, "rb").read() == b"abc"
    assert server.hits == ["/ds/a.bin"]


def test_custom_verify_callable(dataset_root, monkeypatch, tmp_path):
    mirror = tmp_path / "mirror"
    _write(mirror / "a.bin", b"abc")
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(mirror))
    path = str(dataset_root / "a.bin")
    with pytest.raises(DownloadError, match="failed verification"):
        cached_download("https://example.com/a.bin", path=path, verify=lambda p: False)
    assert cached_download("https://example.com/a.bin", path=path,
                           verify=lambda p: open(p, "rb").read() == b"abc") == path


def test_bad_arguments(dataset_root):
    with pytest.raises(ValueError, match="give sha256 or verify, not both"):
        cached_download("http://127.0.0.1/x", sha256=ABC_SHA256, verify=Checksum(ABC_SHA256))
    with pytest.raises(ValueError, match="retries must be >= 0, got -1"):
        cached_download("http://127.0.0.1/x", retries=-1)


def test_progress_bar_only_for_large_files(dataset_root, http_server, tmp_path, capsys, monkeypatch):
    big = os.urandom((1 << 20) + 1)
    site = tmp_path / "site"
    _write(site / "big.bin", big)
    _write(site / "small.bin", b"abc")
    server = http_server(site)
    cached_download(server.url + "small.bin", path=str(dataset_root / "small.bin"))
    assert "small.bin:" not in capsys.readouterr().err
    monkeypatch.setitem(sys.modules, "tqdm", None)  # the plain text fallback
    cached_download(server.url + "big.bin", path=str(dataset_root / "big.bin"))
    err = capsys.readouterr().err
    assert "Downloading " + server.url + "big.bin" in err
    assert "big.bin: 1.0 / 1.0 MiB\n" in err


def test_concurrent_threads_download_once(dataset_root, http_server, tmp_path):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    server.set(delay=0.2)
    target = str(dataset_root / "data.bin")
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        paths = list(pool.map(lambda _: cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD),
                                                        path=target), range(6)))
    assert paths == [target] * 6 and open(target, "rb").read() == PAYLOAD
    assert server.hits == ["/data.bin"]


def test_concurrent_processes_download_once(dataset_root, http_server, tmp_path):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    server.set(delay=0.5)  # both workers start (and import kusari) together, so their requests overlap
    target = str(dataset_root / "data.bin")
    context = multiprocessing.get_context("spawn")
    with concurrent.futures.ProcessPoolExecutor(2, mp_context=context) as pool:
        futures = [pool.submit(cached_download, server.url + "data.bin", _sha256(PAYLOAD), path=target)
                   for _ in range(2)]
        assert [f.result(timeout=60) for f in futures] == [target] * 2
    assert open(target, "rb").read() == PAYLOAD
    assert server.hits == ["/data.bin"]
    assert _leftovers(dataset_root) == []


# -- cache_or_load_file --------------------------------------------------------------------------
def test_cache_or_load_file(dataset_root):
    calls = []

    def creator(path):
        calls.append(path)
        with open(path, "w") as f:
            f.write("made")
        return "created"

    target = str(dataset_root / "sub" / "cache.txt")
    assert download.cache_or_load_file(target, creator, lambda p: open(p).read()) == "created"
    assert download.cache_or_load_file(target, creator, lambda p: open(p).read()) == "made"
    assert len(calls) == 1
    temp = calls[0]
    assert os.path.dirname(temp) == os.path.dirname(target)  # same file system
    assert temp.endswith("cache.txt") and temp != target and not os.path.exists(temp)


def test_cache_or_load_file_failing_creator_leaves_nothing(dataset_root):
    def creator(path):
        with open(path, "w") as f:
            f.write("partial")
        raise RuntimeError("creator broke")

    target = dataset_root / "cache.txt"
    with pytest.raises(RuntimeError, match="creator broke"):
        download.cache_or_load_file(str(target), creator, None)
    assert os.listdir(dataset_root) == []
    with pytest.raises(ValueError, match="cache_or_load_file: the creator wrote nothing to .*cache.txt"):
        download.cache_or_load_file(str(target), lambda p: None, None)
    assert os.listdir(dataset_root) == []


def test_cache_or_load_file_creates_once_under_contention(dataset_root):
    created = []

    def creator(path):
        created.append(1)
        with open(path, "w") as f:
            f.write("x")
        return "x"

    target = str(dataset_root / "c.txt")
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        results = list(pool.map(lambda _: download.cache_or_load_file(target, creator, lambda p: open(p).read()),
                                range(8)))
    assert results == ["x"] * 8 and created == [1]


def test_corrupt_cache_is_deleted_and_rebuilt(dataset_root):
    target = dataset_root / "c.npy"
    dataset_root.mkdir()
    numpy.save(target, numpy.arange(1000))
    with open(target, "r+b") as f:
        f.truncate(200)  # past the header, inside the data
    made = []

    def creator(path):
        made.append(path)
        with open(path, "wb") as f:
            numpy.save(f, numpy.arange(5))
        return "rebuilt"

    with pytest.warns(UserWarning, match=f"{target} is unreadable \\(ValueError: .*\\); deleting and rebuilding"):
        assert download.cache_or_load_file(str(target), creator, numpy.load) == "rebuilt"
    assert len(made) == 1 and numpy.load(target).tolist() == [0, 1, 2, 3, 4]
    assert _leftovers(dataset_root) == []


def test_loader_bugs_are_not_mistaken_for_corruption(dataset_root):
    target = _write(dataset_root / "c.txt", b"fine")

    def loader(path):
        raise TypeError("a bug in the loader")

    with pytest.raises(TypeError, match="a bug in the loader"):
        download.cache_or_load_file(target, lambda p: pytest.fail("rebuilt"), loader)
    assert open(target, "rb").read() == b"fine"


def test_unrebuildable_corrupt_cache_names_the_file(dataset_root):
    target = _write(dataset_root / "c.npy", b"garbage")

    def creator(path):
        raise DownloadError("could not obtain source.bin")

    with pytest.warns(UserWarning, match="unreadable"), pytest.raises(download.CacheError) as info:
        download.cache_or_load_file(target, creator, numpy.load)
    message = str(info.value)
    assert f"the cached file {target} is unreadable (ValueError: " in message
    assert "could not be rebuilt: DownloadError: could not obtain source.bin" in message
    assert f"{target} has been deleted (nothing else needs deleting)" in message
    assert isinstance(info.value.__cause__, DownloadError) and isinstance(info.value, OSError)
    assert os.listdir(dataset_root) == []


def test_undeletable_corrupt_cache_says_what_to_delete(dataset_root, monkeypatch):
    target = _write(dataset_root / "c.npy", b"garbage")

    def refuse(path, *args, **kwargs):
        raise PermissionError(13, "Permission denied", path)

    monkeypatch.setattr(os, "remove", refuse)  # as in a read-only shared dataset root
    with pytest.warns(UserWarning, match="unreadable"), pytest.raises(download.CacheError) as info:
        download.cache_or_load_file(target, lambda p: pytest.fail("rebuilt"), numpy.load)
    monkeypatch.undo()
    assert f"Delete {target} by hand" in str(info.value) and "PermissionError" in str(info.value)
    assert open(target, "rb").read() == b"garbage"


# -- file modes ----------------------------------------------------------------------------------
def _mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.mark.parametrize("mask, expected", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_downloads_and_caches_get_the_mode_of_a_new_file(dataset_root, http_server, tmp_path, monkeypatch,
                                                          umask, mask, expected):
    server = http_server(_write(tmp_path / "site" / "data.bin", PAYLOAD).rsplit(os.sep, 1)[0])
    source = _write(tmp_path / "mirror" / "m.bin", b"abc")
    os.chmod(source, 0o640)  # the mirror's own mode is not copied
    umask(mask)
    over_http = cached_download(server.url + "data.bin", sha256=_sha256(PAYLOAD), path=str(dataset_root / "h"))
    monkeypatch.setenv("KUSARI_DOWNLOAD_MIRROR", str(tmp_path / "mirror"))
    from_mirror = cached_download("https://example.com/m.bin", sha256=ABC_SHA256, path=str(dataset_root / "m.bin"))

    def creator(path):
        with open(path, "w") as f:
            f.write("x")

    cache = str(dataset_root / "cache.txt")
    download.cache_or_load_file(cache, creator, None)
    assert [_mode(p) for p in (over_http, from_mirror, cache)] == [expected] * 3
    assert sorted(os.listdir(dataset_root)) == ["cache.txt", "h", "m.bin"]   # no lock file left
