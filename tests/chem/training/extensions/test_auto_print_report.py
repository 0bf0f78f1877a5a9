"""AutoPrintReport: columns discovered from the log, the trigger's unit first, elapsed_time last."""
import io
from types import SimpleNamespace

import pytest

pytest.importorskip("rdkit")

from kusari.chem.training.extensions.auto_print_report import AutoPrintReport, filter_and_sort_entries
from kusari.training.extensions import LogReport


class _Updater:
    def __init__(self):
        self.iteration = 0
        self.previous_epoch_detail = None

    epoch_detail = property(lambda self: self.iteration / 2)
    epoch = property(lambda self: self.iteration // 2)
    is_new_epoch = property(lambda self: self.iteration % 2 == 0)


def _step(trainer, **observation):
    trainer.updater.previous_epoch_detail = trainer.updater.epoch_detail
    trainer.updater.iteration += 1
    trainer.observation = observation
    trainer.elapsed_time += 1.0


def test_filter_and_sort_entries():
    entries = ["elapsed_time", "main/loss", "iteration", "epoch", "val/acc"]
    assert filter_and_sort_entries(entries) == ["epoch", "main/loss", "val/acc", "elapsed_time"]
    assert filter_and_sort_entries(entries, unit="iteration") == [
        "iteration", "main/loss", "val/acc", "elapsed_time"]


def test_new_keys_add_columns_and_a_new_header():
    trainer = SimpleNamespace(updater=_Updater(), observation={}, out=None, elapsed_time=0.0)
    out = io.StringIO()
    printer = AutoPrintReport(log_report=LogReport(trigger=(1, "iteration"), filename=None), out=out)
    _step(trainer, **{"main/loss": 2.0})
    printer(trainer)
    _step(trainer, **{"main/loss": 1.0})
    printer(trainer)
    _step(trainer, **{"main/loss": 0.5, "main/accuracy": 0.75})
    printer(trainer)
    lines = [line.split() for line in out.getvalue().splitlines()]
    assert lines == [["iteration", "main/loss", "elapsed_time"], ["1", "2", "1"], ["2", "1", "2"],
                     ["iteration", "main/loss", "main/accuracy", "elapsed_time"],
                     ["3", "0.5", "0.75", "3"]]
