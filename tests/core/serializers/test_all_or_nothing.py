"""load_npz / load_hdf5 are all or nothing: a file that fails at any key leaves the target as it was."""
import os
import zipfile

import numpy
import pytest

import kusari
from kusari import optimizers, serializers

L = pytest.importorskip("kusari.links")

N = 10
BAD = "p4"  # the 5th of 10 keys


class Ten(kusari.Link):
    """Ten parameters p0..p9, serialized in that order; optionally a lazy one before them."""

    def __init__(self, seed, lazy=False):
        super().__init__()
        rng = numpy.random.default_rng(seed)
        with self.init_scope():
            if lazy:
                self.lazy = kusari.Parameter()
            for i in range(N):
                setattr(self, f"p{i}", kusari.Parameter(rng.normal(size=3).astype(numpy.float32)))


class Outer(kusari.Chain):
    def __init__(self, seed):
        super().__init__()
        with self.init_scope():
            self.predictor = Ten(seed)


def _state(link):
    return {name: None if p.array is None else p.array.copy() for name, p in link.namedparams()}


def _assert_unchanged(link, before):
    after = _state(link)
    assert after.keys() == before.keys()
    for name, value in before.items():
        if value is None:
            assert after[name] is None, name
        else:
            numpy.testing.assert_array_equal(after[name], value, err_msg=name)


def _members(path):
    with numpy.load(path) as f:
        return {key: f[key] for key in f.files}


def _rewrite(path, change):
    """Rewrite the NPZ at ``path`` with ``change(members)`` applied, keeping the key order."""
    members = _members(path)
    change(members)
    numpy.savez(path, **members)  # pickles object arrays, as a hostile or careless writer would


def _flip_data_byte(path, key):
    """Corrupt ``key``'s member in a stored (uncompressed) NPZ so that its CRC-32 no longer matches."""
    with zipfile.ZipFile(path) as archive:
        info = archive.getinfo(key + ".npy")
    with open(path, "r+b") as f:
        f.seek(info.header_offset + 26)
        name_len, extra_len = numpy.frombuffer(f.read(4), "<u2")
        f.seek(info.header_offset + 30 + int(name_len) + int(extra_len) + info.compress_size - 1)
        last = f.read(1)
        f.seek(-1, os.SEEK_CUR)
        f.write(bytes([last[0] ^ 0xFF]))


def _missing(path, key):
    _rewrite(path, lambda m: m.pop(key))


def _wrong_shape(path, key):
    _rewrite(path, lambda m: m.update({key: numpy.zeros(4, numpy.float32)}))


def _wrong_dtype_kind(path, key):
    _rewrite(path, lambda m: m.update({key: numpy.array(["a", "b", "c"])}))


def _object_array(path, key):
    _rewrite(path, lambda m: m.update({key: numpy.array([1.0, 2.0, 3.0], dtype=object)}))


FAULTS = {
    "bad crc": (_flip_data_byte, OSError, r"corrupt"),
    "missing": (_missing, KeyError, r"not in the file"),
    "wrong shape": (_wrong_shape, ValueError, r"shape \(4,\) in the file but the target has shape \(3,\)"),
    "wrong dtype kind": (_wrong_dtype_kind, ValueError, r"dtype <U1 in the file but the target has dtype float32"),
    "object array": (_object_array, ValueError, r"object array.*arbitrary code"),
}


def _saved(tmp_path, obj, name="m.npz"):
    path = tmp_path / name
    serializers.save_npz(path, obj, compression=False)
    return path


def _check_error(excinfo, path, key):
    message = str(excinfo.value)
    assert str(path) in message and repr(key) in message, message


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_npz_fault_at_5th_of_10_keys_changes_nothing(tmp_path, fault):
    corrupt, error, pattern = FAULTS[fault]
    path = _saved(tmp_path, Ten(0))
    corrupt(path, BAD)
    dst = Ten(1)
    before = _state(dst)
    with pytest.raises(error, match=pattern) as excinfo:
        serializers.load_npz(path, dst)
    _check_error(excinfo, path, BAD)
    _assert_unchanged(dst, before)


@pytest.mark.parametrize("fault", sorted(FAULTS))
def test_npz_fault_with_path_prefix_changes_nothing(tmp_path, fault):
    corrupt, error, pattern = FAULTS[fault]
    path = _saved(tmp_path, Outer(0))
    corrupt(path, "predictor/" + BAD)
    dst = Ten(1)
    before = _state(dst)
    with pytest.raises(error, match=pattern) as excinfo:
        serializers.load_npz(path, dst, path="predictor/")
    _check_error(excinfo, path, "predictor/" + BAD)
    _assert_unchanged(dst, before)


def test_good_file_still_loads_everything(tmp_path):
    src, dst = Outer(0), Ten(1)
    path = _saved(tmp_path, src)
    serializers.load_npz(path, dst, path="predictor/")
    for (name, a), (_, b) in zip(src.predictor.namedparams(), dst.namedparams()):
        numpy.testing.assert_array_equal(a.array, b.array, err_msg=name)


def test_lazy_parameter_stays_uninitialized_on_error(tmp_path):
    src = Ten(0, lazy=True)
    src.lazy.initialize((2, 2))
    src.lazy.array[...] = 5
    path = _saved(tmp_path, src)
    _wrong_shape(path, BAD)
    dst = Ten(1, lazy=True)
    before = _state(dst)
    with pytest.raises(ValueError, match=BAD):
        serializers.load_npz(path, dst)
    assert dst.lazy.array is None
    _assert_unchanged(dst, before)
    # and a good file initializes it
    serializers.save_npz(path, src)
    serializers.load_npz(path, dst)
    numpy.testing.assert_array_equal(dst.lazy.array, numpy.full((2, 2), 5, numpy.float32))


def _trained_adam(seed, steps):
    net = Ten(seed)
    opt = optimizers.Adam().setup(net)
    for _ in range(steps):
        for p in net.params():
            p.grad = numpy.ones_like(p.array) * (seed + 1)
        opt.update()
    return net, opt


def _optimizer_state(opt):
    rules = {name: p.update_rule for name, p in opt.target.namedparams()}
    return opt.t, opt.epoch, {name: (rule.t, None if rule.state is None else
                                     {k: v.copy() for k, v in rule.state.items()})
                              for name, rule in rules.items()}


def _assert_same_optimizer_state(a, b):
    assert a[:2] == b[:2]
    for name, (t, state) in a[2].items():
        assert b[2][name][0] == t, name
        if state is None:
            assert b[2][name][1] is None, name
        else:
            for k, v in state.items():
                numpy.testing.assert_array_equal(b[2][name][1][k], v, err_msg=f"{name}/{k}")


# a fresh optimizer (no state yet) asks for its state with serializer(key, None), which takes any shape
@pytest.mark.parametrize("fault,steps_before", [("bad crc", 0), ("bad crc", 2), ("object array", 0),
                                                ("wrong shape", 2), ("wrong dtype kind", 2)])
def test_optimizer_state_unchanged_on_error(tmp_path, fault, steps_before):
    corrupt, error, pattern = FAULTS[fault]
    _, opt = _trained_adam(0, steps=1)
    path = _saved(tmp_path, opt)
    corrupt(path, f"{BAD}/v")
    _, opt2 = _trained_adam(1, steps=steps_before)
    before = _optimizer_state(opt2)
    with pytest.raises(error, match=pattern) as excinfo:
        serializers.load_npz(path, opt2)
    _check_error(excinfo, path, f"{BAD}/v")
    _assert_same_optimizer_state(before, _optimizer_state(opt2))


def test_optimizer_loads_t_and_state_from_good_file(tmp_path):
    _, opt = _trained_adam(0, steps=3)
    path = _saved(tmp_path, opt)
    _, opt2 = _trained_adam(1, steps=0)
    serializers.load_npz(path, opt2)
    _assert_same_optimizer_state(_optimizer_state(opt), _optimizer_state(opt2))


def test_hdf5_fault_at_5th_of_10_keys_changes_nothing(tmp_path):
    h5py = pytest.importorskip("h5py")
    path = tmp_path / "m.h5"
    serializers.save_hdf5(path, Ten(0))
    with h5py.File(path, "a") as f:
        del f[BAD]
        f[BAD] = numpy.zeros(4, numpy.float32)
    dst = Ten(1)
    before = _state(dst)
    with pytest.raises(ValueError, match=r"shape \(4,\).*\(3,\)") as excinfo:
        serializers.load_hdf5(path, dst)
    _check_error(excinfo, path, BAD)
    _assert_unchanged(dst, before)
    with h5py.File(path, "a") as f:
        del f[BAD]
    with pytest.raises(KeyError, match=BAD):
        serializers.load_hdf5(path, dst)
    _assert_unchanged(dst, before)


def test_serialize_that_branches_on_a_loaded_value_gets_it_in_the_apply_pass():
    class Counted(kusari.Link):
        """Reads how many entries it has, then that many children (as DictSummary does)."""

        def __init__(self, n):
            super().__init__()
            self.values = [float(i) for i in range(n)]

        def serialize(self, serializer):
            n = int(serializer("n", len(self.values)))
            if serializer.is_loading:
                self.values = [0.0] * n
            self.values = [float(serializer[str(i)]("v", v)) for i, v in enumerate(self.values)]

    store = {}
    src = Counted(3)
    src.values = [4.0, 5.0, 6.0]
    serializers.DictionarySerializer(store).save(src)
    dst = Counted(1)
    serializers.NpzDeserializer(store).load(dst)
    assert dst.values == [4.0, 5.0, 6.0]


def test_check_pass_returns_the_value_passed_in():
    class Recorder(kusari.Link):
        def __init__(self):
            super().__init__()
            self.t = 1
            self.seen = []

        def serialize(self, serializer):
            self.t = serializer("t", self.t)
            self.seen.append(self.t)

    rec = Recorder()
    serializers.NpzDeserializer({"t": numpy.asarray(7)}).load(rec)
    assert rec.seen == [1, 7] and rec.t == 7


def test_serialize_that_cannot_take_none_for_a_fresh_value_is_given_the_stored_one():
    class Offset(kusari.Link):
        """Uses what ``serializer(key, None)`` returns without checking for None."""

        def __init__(self):
            super().__init__()
            self.offset = 0.0

        def serialize(self, serializer):
            if serializer.is_loading:
                self.offset = float(serializer("offset", None)) + 0.5

    link = Offset()
    serializers.NpzDeserializer({"offset": numpy.asarray(2.0)}).load(link)
    assert link.offset == 2.5


def _small_trainer(out, shuffle):
    from kusari import datasets, iterators, training
    from kusari.training import extensions

    rng = numpy.random.default_rng(0)
    x = rng.normal(size=(16, 3)).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32)
    model = L.Classifier(L.Linear(3, 2, initialW=numpy.full((2, 3), 0.1, numpy.float32)))
    opt = optimizers.Adam().setup(model)
    it = iterators.SerialIterator(datasets.TupleDataset(x, t), 4, shuffle=shuffle)
    trainer = training.Trainer(training.StandardUpdater(it, opt), (3, "iteration"), out=str(out))
    trainer.extend(extensions.snapshot(filename="snap"), trigger=(3, "iteration"))
    return trainer


def _trainer_state(trainer):
    updater = trainer.updater
    it = updater.get_iterator("main")
    opt = updater.get_optimizer("main")
    return (updater.iteration, it.current_position, it.epoch, it.is_new_epoch,
            _state(opt.target), _optimizer_state(opt))


def _assert_same_trainer_state(a, b):
    assert a[:4] == b[:4]
    for name, value in a[4].items():
        numpy.testing.assert_array_equal(b[4][name], value, err_msg=name)
    _assert_same_optimizer_state(a[5], b[5])


@pytest.mark.parametrize("shuffle", [False, True])
@pytest.mark.parametrize("fault", ["bad crc", "wrong shape"])
def test_trainer_snapshot_load_is_all_or_nothing(tmp_path, shuffle, fault):
    trainer = _small_trainer(tmp_path / "a", shuffle)
    trainer.run()
    snap = tmp_path / "a" / "snap"
    # a stored copy, so that one flipped byte is a CRC error; the model key comes after the iterator's
    stored = tmp_path / "snap_stored.npz"
    numpy.savez(stored, **_members(snap))
    key = "updater/model:main/predictor/W"
    if fault == "bad crc":
        _flip_data_byte(stored, key)
        error = OSError
    else:
        _rewrite(stored, lambda m: m.update({key: numpy.zeros((5, 3), numpy.float32)}))
        error = ValueError

    other = _small_trainer(tmp_path / "b", shuffle)
    other.updater.update()  # a state of its own, different from the snapshot's
    before = _trainer_state(other)
    with pytest.raises(error, match="predictor/W") as excinfo:
        serializers.load_npz(stored, other)
    _check_error(excinfo, stored, key)
    _assert_same_trainer_state(before, _trainer_state(other))

    # the intact snapshot loads: iteration and weights come back
    serializers.load_npz(snap, other)
    assert other.updater.iteration == 3
    numpy.testing.assert_array_equal(other.updater.get_optimizer("main").target.predictor.W.array,
                                     trainer.updater.get_optimizer("main").target.predictor.W.array)
