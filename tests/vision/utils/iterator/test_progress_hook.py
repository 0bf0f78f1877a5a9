import re

from kusari.vision.utils.iterator import ProgressHook


def test_reports_count_rate_and_eta(capsys):
    hook = ProgressHook(n_total=10)
    hook(([1, 2, 3],), (), ())
    hook(([4, 5],), (), ())
    out = capsys.readouterr().out
    last = out.split("\r")[-1]
    assert re.fullmatch(r"5 of 10 samples, \d+\.\d\d samples/sec, ETA +\d+:\d\d:\d\d", last), last
    assert hook.n_processed == 5


def test_without_total(capsys):
    ProgressHook()(([1],), (), ())
    assert re.fullmatch(r"\r1 samples, \d+\.\d\d samples/sec", capsys.readouterr().out)
