"""Chainer's None entries load as "no value"; object arrays are never unpickled; None is saved as Chainer saves it."""
import io
import pathlib
import zipfile

import numpy
import pytest

import kusari
from kusari import serializers

L = pytest.importorskip("kusari.links")
FIXTURES = pathlib.Path(__file__).parent / "fixtures"
NONE_KEYS = ("lazy/W", "scaler/indices")


class Scaler(kusari.Link):
    def __init__(self, indices=None):
        super().__init__()
        self.add_persistent("mean", numpy.zeros(2, numpy.float32))
        self.add_persistent("indices", indices)


class NoneNet(kusari.Chain):
    """The chain of tools/make_chainer_fixture.py's none_entries.npz."""

    def __init__(self, indices=None):
        super().__init__()
        with self.init_scope():
            self.lazy = L.Linear(None, 3)
            self.fc = L.Linear(2, 2)
            self.scaler = Scaler(indices)


def _chainer_file():
    with numpy.load(FIXTURES / "none_entries.npz") as f:
        return {key: f[key] for key in f.files if key not in NONE_KEYS}


def _member_bytes(path, key):
    with zipfile.ZipFile(path) as archive:
        return archive.read(key + ".npy")


def test_chainer_none_entries_load_as_no_value():
    net = NoneNet(indices=3)  # a value that the file's None must replace, as in Chainer
    serializers.load_npz(FIXTURES / "none_entries.npz", net)
    assert net.lazy.W.array is None
    assert net.scaler.indices is None
    stored = _chainer_file()
    numpy.testing.assert_array_equal(net.lazy.b.array, stored["lazy/b"])
    numpy.testing.assert_array_equal(net.fc.W.array, stored["fc/W"])
    numpy.testing.assert_array_equal(net.scaler.mean, stored["scaler/mean"])


def test_none_in_the_file_keeps_an_initialized_parameter():
    net = NoneNet()
    net.lazy.W.initialize((3, 4))
    net.lazy.W.array[...] = 2
    serializers.load_npz(FIXTURES / "none_entries.npz", net)
    numpy.testing.assert_array_equal(net.lazy.W.array, numpy.full((3, 4), 2, numpy.float32))


def test_kusari_writes_none_with_chainers_bytes(tmp_path):
    net = NoneNet()
    serializers.load_npz(FIXTURES / "none_entries.npz", net)
    serializers.save_npz(tmp_path / "again.npz", net)
    for key in NONE_KEYS:
        assert _member_bytes(tmp_path / "again.npz", key) == _member_bytes(FIXTURES / "none_entries.npz", key)


def test_chainer_read_kusaris_file():
    """Written by tools/make_chainer_fixture.py: real Chainer 7.8.1 loading kusari's re-save of none_entries."""
    with numpy.load(FIXTURES / "chainer_read_kusari.npz") as f:
        seen = {key: f[key] for key in f.files}
    assert bool(seen["lazy_W_is_none"]) and bool(seen["indices_is_none"])
    stored = _chainer_file()
    for name, key in (("lazy_b", "lazy/b"), ("fc_W", "fc/W"), ("fc_b", "fc/b"), ("mean", "scaler/mean")):
        numpy.testing.assert_array_equal(seen[name], stored[key], err_msg=name)


def test_none_written_by_numpy2_loads(tmp_path):
    buf = io.BytesIO()
    numpy.savez(buf, indices=numpy.asarray(None), mean=numpy.array([1, 2], numpy.float32))
    scaler = Scaler(indices=3)
    buf.seek(0)
    serializers.load_npz(buf, scaler)
    assert scaler.indices is None
    numpy.testing.assert_array_equal(scaler.mean, [1, 2])


def test_in_memory_round_trip_of_none():
    store = {}
    serializers.DictionarySerializer(store).save(NoneNet())
    net = NoneNet(indices=3)
    serializers.NpzDeserializer(store).load(net)
    assert net.lazy.W.array is None and net.scaler.indices is None


class _CreatesFile:
    """Unpickling this calls ``open(path, 'w')``: it creates a file."""

    def __init__(self, path):
        self.path = str(path)

    def __reduce__(self):
        return open, (self.path, "w")


def _malicious_npz(path, marker):
    payload = numpy.empty((), dtype=object)
    payload[()] = _CreatesFile(marker)
    good = {f"p{i}": numpy.full(3, i, numpy.float32) for i in range(4)}
    numpy.savez(path, **good, evil=payload)


class _Four(kusari.Link):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            for i in range(4):
                setattr(self, f"p{i}", kusari.Parameter(numpy.zeros(3, numpy.float32)))
        self.add_persistent("evil", None)


def test_malicious_pickle_is_not_run(tmp_path):
    path, marker = tmp_path / "evil.npz", tmp_path / "created_by_pickle"
    _malicious_npz(path, marker)
    link = _Four()
    with pytest.raises(ValueError, match=r"'evil' is an object array.*arbitrary code") as excinfo:
        serializers.load_npz(path, link)
    assert str(path) in str(excinfo.value)
    assert not marker.exists()
    for p in link.params():
        numpy.testing.assert_array_equal(p.array, numpy.zeros(3, numpy.float32))
    assert link.evil is None
    # the payload is live: unpickling it does create the file
    with numpy.load(path, allow_pickle=True) as f:
        f["evil"]
    assert marker.exists()


def test_object_array_in_a_dict_is_refused():
    store = {"p0": numpy.zeros(3, numpy.float32), "evil": numpy.array([{"a": 1}], dtype=object)}
    with pytest.raises(ValueError, match="'evil' is an object array"):
        serializers.NpzDeserializer(store, strict=False).load(_Four())


def test_save_refuses_object_values(tmp_path):
    link = _Four()
    link.evil = {"a": 1}
    with pytest.raises(ValueError, match="save_npz: 'evil' is an object array"):
        serializers.save_npz(tmp_path / "x.npz", link)
    assert not (tmp_path / "x.npz").exists()


def test_hdf5_none_is_an_empty_dataset_as_in_chainer(tmp_path):
    h5py = pytest.importorskip("h5py")
    path = tmp_path / "none.h5"
    src = NoneNet()
    src.lazy.b.array[...] = [1, 2, 3]
    serializers.save_hdf5(path, src)
    with h5py.File(path, "r") as f:
        for key in NONE_KEYS:
            assert f[key].shape is None and f[key].dtype == numpy.float32  # h5py.Empty('f'), Chainer's None
    dst = NoneNet(indices=3)
    serializers.load_hdf5(path, dst)
    assert dst.lazy.W.array is None and dst.scaler.indices is None
    numpy.testing.assert_array_equal(dst.lazy.b.array, [1, 2, 3])
