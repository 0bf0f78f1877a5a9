"""``python -m kusari.model_zoo list | info NAME``: every entry with its metric and source; one entry as JSON."""
import json
import subprocess
import sys

import pytest

from kusari import model_zoo
from kusari.model_zoo import __main__ as cli


def test_list_shows_every_entry_with_its_metric_and_source(capsys):
    assert cli.main(["list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3 * len(model_zoo.list())
    assert [line.split(" (")[0] for line in lines[::3]] == model_zoo.list()
    at = lines.index("dqn-cartpole (CartPole-v1)")
    entry = model_zoo.info("dqn-cartpole")
    assert lines[at + 1] == f"    metric: mean_return {entry['metric']['mean_return']:g}"
    assert lines[at + 2] == (f"    source: {entry['reproduction']} at commit {entry['commit'][:12]}; "
                             "file shipped with kusari")
    at = lines.index("ssd300-voc0712 (PASCAL VOC 2007 trainval + 2012 trainval)")
    assert lines[at + 2].endswith(f"; file downloaded from {model_zoo.info('ssd300-voc0712')['url']}")


def test_info_prints_the_record_as_json(capsys):
    assert cli.main(["info", "mnist-mlp"]) == 0
    assert json.loads(capsys.readouterr().out) == model_zoo.info("mnist-mlp")
    with pytest.raises(SystemExit) as info:
        cli.main(["info", "no-such-model"])
    assert info.value.code == 2
    assert "unknown model 'no-such-model'; known models: a2c-cartpole" in capsys.readouterr().err


def test_runs_as_a_module():
    result = subprocess.run([sys.executable, "-m", "kusari.model_zoo", "list"], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("a2c-cartpole (CartPole-v1)\n    metric: ")
