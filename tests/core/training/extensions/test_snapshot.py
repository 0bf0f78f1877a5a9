import os
import warnings

import numpy
import pytest

from kusari import serializers
from kusari.training import Trainer
from kusari.training.extensions import LogReport, snapshot, snapshot_object
from kusari.training.extensions._snapshot import _glob_pattern


def _trainer(make_setup, out, stop=4, **snapshot_kwargs):
    model, optimizer, updater = make_setup(shuffle=True)
    trainer = Trainer(updater, (stop, "iteration"), out=str(out))
    trainer.extend(snapshot(**snapshot_kwargs), trigger=(2, "iteration"))
    return model, trainer


def test_files_named_by_template_and_no_temporaries(make_setup, tmp_path):
    _, trainer = _trainer(make_setup, tmp_path, stop=6)
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ["snapshot_iter_2", "snapshot_iter_4", "snapshot_iter_6"]
    with numpy.load(tmp_path / "snapshot_iter_4") as npz:
        assert int(npz["updater/iteration"]) == 4


def test_n_retains_keeps_newest(make_setup, tmp_path):
    _, trainer = _trainer(make_setup, tmp_path, stop=8, n_retains=2)
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ["snapshot_iter_6", "snapshot_iter_8"]


def test_autoload_resumes_from_newest_and_skips_corrupt(make_setup, tmp_path):
    model, trainer = _trainer(make_setup, tmp_path, stop=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # a run that trains says nothing
        trainer.run()
    saved_W = model.predictor.W.array.copy()
    with open(tmp_path / "snapshot_iter_6", "wb") as f:  # newest by mtime, but truncated garbage
        f.write(b"PK\x03\x04 not a whole zip")
    later = os.stat(tmp_path / "snapshot_iter_4").st_mtime_ns + 10**9
    os.utime(tmp_path / "snapshot_iter_6", ns=(later, later))

    model2, trainer2 = _trainer(make_setup, tmp_path, stop=4, autoload=True)
    with pytest.warns(UserWarning, match=r"^Trainer.run: the stop trigger fired before the first update \(at "
                                         r"iteration 4, epoch 1\): nothing to train. A run resumed"):
        trainer2.run()  # loads iteration 4, which already meets the stop trigger
    assert trainer2.updater.iteration == 4
    numpy.testing.assert_array_equal(model2.predictor.W.array, saved_W)


def test_autoload_without_snapshots_starts_fresh(make_setup, tmp_path):
    _, trainer = _trainer(make_setup, tmp_path / "new", stop=2, autoload=True)
    trainer.run()
    assert trainer.updater.iteration == 2


def test_autoload_restores_extension_state(make_setup, tmp_path):
    _, trainer = _trainer(make_setup, tmp_path, stop=4)
    trainer.extend(LogReport(trigger=(1, "iteration"), filename=None))
    trainer.run()
    _, trainer2 = _trainer(make_setup, tmp_path, stop=6, autoload=True)
    log2 = LogReport(trigger=(1, "iteration"), filename=None)
    trainer2.extend(log2)
    trainer2.run()
    assert [e["iteration"] for e in log2.log] == [1, 2, 3, 4, 5, 6]


def test_snapshot_object_and_condition(make_setup, tmp_path):
    model, optimizer, updater = make_setup()
    trainer = Trainer(updater, (4, "iteration"), out=str(tmp_path))
    trainer.extend(snapshot_object(model, "model_{.updater.iteration}.npz",
                                   condition=lambda: trainer.updater.iteration != 2),
                   trigger=(1, "iteration"))
    trainer.run()
    assert sorted(os.listdir(tmp_path)) == ["model_1.npz", "model_3.npz", "model_4.npz"]
    model2, _, _ = make_setup()
    serializers.load_npz(tmp_path / "model_4.npz", model2)
    numpy.testing.assert_array_equal(model2.predictor.W.array, model.predictor.W.array)


def test_snapshot_on_error(make_setup, tmp_path):
    model, optimizer, updater = make_setup()
    trainer = Trainer(updater, (10, "iteration"), out=str(tmp_path))
    trainer.extend(snapshot(filename="crash", snapshot_on_error=True), trigger=(100, "iteration"))

    def fail(trainer):
        if trainer.updater.iteration == 3:
            raise RuntimeError("stop")

    trainer.extend(fail)
    with pytest.raises(RuntimeError, match="stop"):
        trainer.run(show_loop_exception_msg=False)
    with numpy.load(tmp_path / "crash") as npz:
        assert int(npz["updater/iteration"]) == 3


def test_custom_writer_and_callable_filename(make_setup, tmp_path):
    calls = []
    _, trainer = _trainer(make_setup, tmp_path, stop=2,
                          filename=lambda t: f"s{t.updater.iteration}",
                          writer=lambda filename, outdir, target, savefun: calls.append((filename, outdir)))
    trainer.run()
    assert calls == [("s2", str(tmp_path))]


def test_glob_pattern():
    assert _glob_pattern("snapshot_iter_{.updater.iteration}") == "snapshot_iter_*"
    assert _glob_pattern("m_{.updater.epoch}_{.updater.iteration}.npz") == "m_*_*.npz"
    assert _glob_pattern("a[1]{}") == "a[[]1]*"


def test_invalid_arguments():
    with pytest.raises(ValueError, match="snapshot: autoload and n_retains"):
        snapshot(filename=lambda t: "x", autoload=True)
    with pytest.raises(ValueError, match="snapshot: n_retains"):
        snapshot(n_retains=0)
    with pytest.raises(TypeError, match="snapshot: filename"):
        snapshot(filename=3)
