import io
from types import SimpleNamespace

from kusari.training.extensions import ProgressBar
from kusari.training.triggers import IntervalTrigger


class _Tty(io.StringIO):
    def isatty(self):
        return True


def _run(out, n=8, **kwargs):
    """Drive a ProgressBar (update_interval 2) through ``n`` iterations at 4 iterations per epoch."""
    bar = ProgressBar(update_interval=2, bar_length=10, out=out, **kwargs)
    updater = SimpleNamespace(iteration=0, epoch=0, epoch_detail=0.0)
    trainer = SimpleNamespace(updater=updater, stop_trigger=IntervalTrigger(2, "epoch"))
    for i in range(1, n + 1):
        updater.iteration, updater.epoch, updater.epoch_detail = i, i // 4, i / 4
        bar(trainer)
    bar.finalize()
    return out.getvalue()


def test_non_tty_plain_lines():
    text = _run(io.StringIO())
    assert "\r" not in text and "\033" not in text
    lines = text.splitlines()
    assert len(lines) == 4  # iterations 2, 4, 6, 8
    assert lines[0].startswith("2 iter, 0 epoch / 2 epochs [##........]  25.00%")
    assert lines[-1].startswith("8 iter, 2 epoch / 2 epochs [##########] 100.00%")
    assert "iters/sec" in lines[-1] and "ETA" in lines[-1]


def test_tty_redraws_in_place():
    text = _run(_Tty())
    assert text.count("\r") == 4 and text.endswith("\n") and text.count("\n") == 1


def test_explicit_training_length():
    text = _run(io.StringIO(), training_length=(16, "iteration"))
    assert text.splitlines()[-1].startswith("8 iter, 2 epoch / 16 iterations [#####.....]  50.00%")
