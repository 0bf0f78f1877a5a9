import io
import os

import numpy
import pytest

import kusari
from kusari import optimizers, serializers


def _assert_same(a, b):
    for (na, pa), (nb, pb) in zip(sorted(a.namedparams()), sorted(b.namedparams())):
        assert na == nb
        numpy.testing.assert_array_equal(pa.array, pb.array)


def test_round_trip_path_and_layout(tmp_path, make_net):
    src, dst = make_net(0), make_net(1)
    src.l1.count = 7
    src.l2.running[...] = [1.5, -2.5]
    path = tmp_path / "model.npz"
    serializers.save_npz(path, src)
    with numpy.load(path) as f:
        assert set(f.files) == {f"{l}/{k}" for l in ("l1", "l2")
                                for k in ("W", "b", "count", "running")}
        numpy.testing.assert_array_equal(f["l1/W"], src.l1.W.array)
    serializers.load_npz(str(path), dst)
    _assert_same(src, dst)
    assert dst.l1.count == 7 and isinstance(dst.l1.count, int)
    numpy.testing.assert_array_equal(dst.l2.running, [1.5, -2.5])
    assert dst.l1.W.dtype == numpy.float32


@pytest.mark.parametrize("compression", [True, False])
def test_round_trip_file_object(make_net, compression):
    src, dst = make_net(0), make_net(1)
    buf = io.BytesIO()
    serializers.save_npz(buf, src, compression=compression)
    buf.seek(0)
    serializers.load_npz(buf, dst)
    _assert_same(src, dst)


def test_optimizer_layout(tmp_path, make_net):
    net = make_net()
    opt = optimizers.Adam().setup(net)
    for p in net.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    opt.new_epoch()
    serializers.save_npz(tmp_path / "opt.npz", opt)
    with numpy.load(tmp_path / "opt.npz") as f:
        assert {"t", "epoch", "l1/W/t", "l1/W/m", "l1/W/v", "l2/b/m"} <= set(f.files)
        assert int(f["t"]) == 1 and int(f["epoch"]) == 1


def test_missing_key_strict_and_lenient(make_net):
    src, dst = make_net(0), make_net(1)
    store = {}
    serializers.DictionarySerializer(store).save(src)
    del store["l2/b"]
    with pytest.raises(KeyError, match="l2/b"):
        serializers.NpzDeserializer(store).load(dst)
    dst = make_net(1)
    old_b = dst.l2.b.array.copy()
    serializers.NpzDeserializer(store, strict=False).load(dst)
    numpy.testing.assert_array_equal(dst.l2.b.array, old_b)
    numpy.testing.assert_array_equal(dst.l2.W.array, src.l2.W.array)


@pytest.mark.parametrize("ignore", [["l1/W", "l2/count"], lambda key: key in ("l1/W", "l2/count")])
def test_ignore_names(tmp_path, make_net, ignore):
    src, dst = make_net(0), make_net(1)
    src.l2.count = 5
    serializers.save_npz(tmp_path / "m.npz", src)
    old_w = dst.l1.W.array.copy()
    serializers.load_npz(tmp_path / "m.npz", dst, ignore_names=ignore)
    numpy.testing.assert_array_equal(dst.l1.W.array, old_w)
    assert dst.l2.count == 0
    numpy.testing.assert_array_equal(dst.l1.b.array, src.l1.b.array)


def test_bad_ignore_names():
    with pytest.raises(TypeError, match="NpzDeserializer: ignore_names"):
        serializers.NpzDeserializer({}, ignore_names=[1, 2])


def test_shape_mismatch_names_key_and_shapes(make_net):
    store = {}
    serializers.DictionarySerializer(store).save(make_net(0))
    store["l1/W"] = numpy.zeros((4, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"'l1/W'.*\(4, 3\).*\(2, 3\)"):
        serializers.NpzDeserializer(store).load(make_net(1))


def test_load_with_path_prefix(tmp_path, make_net):
    class Outer(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.model = make_net(0)

    outer = Outer()
    serializers.save_npz(tmp_path / "snap.npz", outer)
    dst = make_net(1)
    serializers.load_npz(tmp_path / "snap.npz", dst, path="model/")
    _assert_same(outer.model, dst)


def test_uninitialized_parameter_is_initialized_on_load(make_net):
    class Lazy(kusari.Link):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.W = kusari.Parameter()

    store = {"W": numpy.arange(6, dtype=numpy.float32).reshape(2, 3)}
    lazy = Lazy()
    serializers.NpzDeserializer(store).load(lazy)
    numpy.testing.assert_array_equal(lazy.W.array, store["W"])
    # an uninitialized parameter is stored as Chainer stores it: a 0-d object array holding None
    saved = {}
    serializers.DictionarySerializer(saved).save(Lazy())
    assert list(saved) == ["W"]
    assert saved["W"].dtype == object and saved["W"].shape == () and saved["W"].item() is None


def test_dictionary_serializer_snapshot_is_a_copy(make_net):
    net = make_net()
    store = {}
    serializers.DictionarySerializer(store).save(net)
    net.l1.W.array[...] = 0
    assert not numpy.all(store["l1/W"] == 0)


class _Failing(kusari.Chain):
    """Raises after part of its values were serialized."""

    def __init__(self, net):
        super().__init__()
        with self.init_scope():
            self.net = net

    def serialize(self, serializer):
        self.net.l1.serialize(serializer["net"]["l1"])
        raise RuntimeError("crash mid-serialization")


def _leftovers(directory, keep):
    return sorted(set(os.listdir(directory)) - {keep})


def test_crash_during_serialization_keeps_old_file(tmp_path, make_net):
    path = tmp_path / "m.npz"
    serializers.save_npz(path, make_net(0))
    before = path.read_bytes()
    with pytest.raises(RuntimeError, match="crash"):
        serializers.save_npz(path, _Failing(make_net(1)))
    assert path.read_bytes() == before
    assert _leftovers(tmp_path, "m.npz") == []


def test_crash_during_write_keeps_old_file(tmp_path, make_net, monkeypatch):
    path = tmp_path / "m.npz"
    serializers.save_npz(path, make_net(0))
    before = path.read_bytes()

    def half_write(member, array, **kwargs):
        member.write(b"\x93NUMPY partial")
        raise OSError("disk full")

    monkeypatch.setattr(numpy.lib.format, "write_array", half_write)
    with pytest.raises(OSError, match="disk full"):
        serializers.save_npz(path, make_net(1))
    assert path.read_bytes() == before
    assert _leftovers(tmp_path, "m.npz") == []


@pytest.mark.gpu
def test_save_from_the_gpu_and_load_on_the_cpu_and_back(tmp_path, make_net):
    import cupy
    net = make_net(1)
    net.to_device("@cupy:0")
    opt = optimizers.Adam().setup(net)
    for p in net.params():
        p.grad = cupy.ones_like(p.array)
    opt.update()
    serializers.save_npz(str(tmp_path / "net.npz"), net)
    serializers.save_npz(str(tmp_path / "opt.npz"), opt)
    on_cpu = make_net(2)
    serializers.load_npz(str(tmp_path / "net.npz"), on_cpu)
    for (name, p), (_, q) in zip(net.namedparams(), on_cpu.namedparams()):
        assert isinstance(q.array, numpy.ndarray)
        numpy.testing.assert_array_equal(q.array, cupy.asnumpy(p.array), err_msg=name)
    back = make_net(3)
    back.to_device("@cupy:0")
    serializers.load_npz(str(tmp_path / "net.npz"), back)
    back_opt = optimizers.Adam().setup(back)
    serializers.load_npz(str(tmp_path / "opt.npz"), back_opt)
    assert isinstance(back.l1.W.array, cupy.ndarray) and back_opt.t == opt.t
    assert isinstance(back.l1.W.update_rule.state["m"], cupy.ndarray)
