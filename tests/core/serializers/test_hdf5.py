import io
import sys

import numpy
import pytest

from kusari import optimizers, serializers

h5py = pytest.importorskip("h5py")


def test_round_trip_and_layout(tmp_path, make_net):
    src, dst = make_net(0), make_net(1)
    src.l1.count = 3
    path = tmp_path / "m.h5"
    serializers.save_hdf5(path, src)
    with h5py.File(path, "r") as f:
        numpy.testing.assert_array_equal(f["l1/W"][()], src.l1.W.array)
        assert int(f["l1/count"][()]) == 3
    serializers.load_hdf5(path, dst)
    for (_, a), (_, b) in zip(src.namedparams(), dst.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array)
    assert dst.l1.count == 3


def test_file_object_and_optimizer(make_net):
    net = make_net()
    opt = optimizers.MomentumSGD().setup(net)
    for p in net.params():
        p.grad = numpy.ones_like(p.array)
    opt.update()
    buf = io.BytesIO()
    serializers.save_hdf5(buf, opt)
    net2 = make_net()
    opt2 = optimizers.MomentumSGD().setup(net2)
    buf.seek(0)
    serializers.load_hdf5(buf, opt2)
    assert opt2.t == 1
    numpy.testing.assert_array_equal(net2.l1.W.update_rule.state["v"],
                                     net.l1.W.update_rule.state["v"])


def test_strict_and_shape_errors(tmp_path, make_net):
    path = tmp_path / "m.h5"
    serializers.save_hdf5(path, make_net(0))
    with h5py.File(path, "a") as f:
        del f["l2/b"]
        del f["l1/W"]
        f["l1/W"] = numpy.zeros((5, 3), numpy.float32)
    with pytest.raises(ValueError, match=r"'l1/W'.*\(5, 3\).*\(2, 3\)"):
        serializers.load_hdf5(path, make_net(1))
    with pytest.raises(KeyError, match="l2/b"):
        serializers.load_hdf5(path, make_net(1), ignore_names=["l1/W"])
    serializers.load_hdf5(path, make_net(1), strict=False, ignore_names=["l1/W"])


def test_crash_keeps_old_file(tmp_path, make_net):
    class Failing:
        def serialize(self, serializer):
            serializer("x", numpy.ones(3))
            raise RuntimeError("crash")

    path = tmp_path / "m.h5"
    serializers.save_hdf5(path, make_net(0))
    before = path.read_bytes()
    with pytest.raises(RuntimeError):
        serializers.save_hdf5(path, Failing())
    assert path.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["m.h5"]


def test_missing_h5py_names_extra(monkeypatch, make_net, tmp_path):
    monkeypatch.setitem(sys.modules, "h5py", None)
    with pytest.raises(ImportError, match=r"pip install 'kusari\[hdf5\]'"):
        serializers.save_hdf5(tmp_path / "m.h5", make_net())
