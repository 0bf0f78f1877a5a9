import io

from kusari.training.extensions import LogReport, PrintReport


def test_table(fake_trainer):
    out = io.StringIO()
    log_report = LogReport(trigger=(2, "iteration"), filename=None)
    printer = PrintReport(["iteration", "main/loss", "absent"], log_report=log_report, out=out)
    for loss in (1.0, 2.0, 0.25, 0.25):
        fake_trainer.step(**{"main/loss": loss})
        printer(fake_trainer)  # calls the LogReport it owns
    lines = out.getvalue().splitlines()
    assert lines[0].split() == ["iteration", "main/loss", "absent"]
    assert lines[1].split() == ["2", "1.5"]
    assert lines[2].split() == ["4", "0.25"]
    assert len(lines) == 3
    # columns are aligned: each value starts where its header starts
    assert lines[1].index("1.5") == lines[0].index("main/loss")


def test_by_name_through_trainer(fake_trainer):
    out = io.StringIO()
    log_report = LogReport(trigger=(1, "iteration"), filename=None)
    fake_trainer.get_extension = {"LogReport": log_report}.__getitem__
    printer = PrintReport(["a"], out=out)
    fake_trainer.step(a=3.0)
    log_report(fake_trainer)
    printer(fake_trainer)
    printer(fake_trainer)  # nothing new: nothing printed
    assert out.getvalue().splitlines() == ["a", "3"]
