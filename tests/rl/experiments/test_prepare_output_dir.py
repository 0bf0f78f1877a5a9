import argparse
import json
import os

import pytest

from kusari.rl.experiments import (
    generate_exp_id,
    is_under_git_control,
    prepare_output_dir,
)


@pytest.fixture
def outside_git(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    assert not is_under_git_control()
    return tmp_path


def test_writes_args_command_and_start_outside_git(outside_git):
    args = argparse.Namespace(lr=0.1, env="CartPole-v1")
    outdir = prepare_output_dir(args, basedir="results", argv=["train.py", "--lr", "0.1"],
                                time_format="%Y")
    assert os.path.dirname(outdir) == "results" and os.path.basename(outdir).isdigit()
    with open(os.path.join(outdir, "args.txt")) as f:
        assert json.load(f) == {"lr": 0.1, "env": "CartPole-v1"}
    with open(os.path.join(outdir, "command.txt")) as f:
        assert f.read() == "train.py --lr 0.1"
    assert sorted(os.listdir(outdir)) == ["args.txt", "command.txt", "start.txt"]  # no git files


def test_an_existing_folder_is_backed_up_and_start_times_append(outside_git):
    outdir = prepare_output_dir({"a": 1}, exp_id="run", argv=["x"])
    prepare_output_dir({"a": 2}, exp_id="run", argv=["x"], time_format="%Y")
    backups = [d for d in os.listdir(".") if d.startswith("run.") and d.endswith(".backup")]
    assert len(backups) == 1
    with open(os.path.join(backups[0], "args.txt")) as f:
        assert json.load(f) == {"a": 1}
    with open(os.path.join(outdir, "start.txt")) as f:
        assert len(f.read().splitlines()) == 2


def test_generate_exp_id_needs_git_and_args_must_be_json(outside_git):
    with pytest.raises(RuntimeError, match="not in a git work tree"):
        generate_exp_id()
    with pytest.raises(TypeError, match="args cannot be written as JSON"):
        prepare_output_dir({"f": object()}, exp_id="x")
