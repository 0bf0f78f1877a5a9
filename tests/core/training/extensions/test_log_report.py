import json

import numpy
import pytest

from kusari import Variable
from kusari.training.extensions import LogReport


def test_means_per_interval_and_json_file(fake_trainer, tmp_path):
    log_report = LogReport(trigger=(2, "iteration"))
    for loss in (1.0, 3.0, 5.0, 6.0, 7.0):
        fake_trainer.step(**{"main/loss": numpy.float32(loss), "main/vec": numpy.zeros(3)})
        log_report(fake_trainer)
    assert [e["main/loss"] for e in log_report.log] == [2.0, 5.5]
    assert all("main/vec" not in e for e in log_report.log)  # non-scalars are not logged
    assert [(e["iteration"], e["epoch"]) for e in log_report.log] == [(2, 0), (4, 1)]
    assert [e["elapsed_time"] for e in log_report.log] == [2.0, 4.0]
    with open(tmp_path / "log") as f:
        assert json.load(f) == log_report.log
    assert not [p for p in tmp_path.iterdir() if p.name != "log"]  # no temporary files left


def test_keys_postprocess_and_variable_values(fake_trainer, tmp_path):
    def post(stats):
        stats["double"] = 2 * stats["a"]

    log_report = LogReport(keys=["a"], trigger=(1, "iteration"), postprocess=post, filename="mylog")
    fake_trainer.step(a=Variable(numpy.array(1.5, numpy.float32)), b=1.0)
    log_report(fake_trainer)
    assert log_report.log == [{"a": 1.5, "double": 3.0, "epoch": 0, "iteration": 1, "elapsed_time": 1.0}]
    assert (tmp_path / "mylog").exists()


def test_no_file_when_filename_none(fake_trainer, tmp_path):
    log_report = LogReport(trigger=(1, "iteration"), filename=None)
    fake_trainer.step(a=1.0)
    log_report(fake_trainer)
    assert log_report.log and list(tmp_path.iterdir()) == []


def test_serialize_keeps_partial_interval(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer()
    log_report = LogReport(trigger=(2, "iteration"), filename=None)
    for v in (1.0, 2.0, 3.0):
        trainer.step(a=v)
        log_report(trainer)
    resumed = store_roundtrip(log_report, LogReport(trigger=(2, "iteration"), filename=None))
    trainer.step(a=5.0)
    resumed(trainer)
    assert [e["a"] for e in resumed.log] == [1.5, 4.0]


def test_unexpected_kwarg():
    with pytest.raises(TypeError, match="LogReport: unexpected"):
        LogReport(bogus=1)


def test_entry_trigger_is_the_interval_and_leaves_the_extension_trigger_alone():
    log = LogReport(trigger=(3, "iteration"))
    assert (log.entry_trigger.period, log.entry_trigger.unit) == (3, "iteration")
    assert log.trigger == (1, "iteration")   # the trainer still calls it every iteration
