import sys

import pytest

from bench import environments


def test_cache_dir_follows_the_variable(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_BENCH_CACHE", str(tmp_path))
    assert environments.cache_dir() == tmp_path
    monkeypatch.delenv("KUSARI_BENCH_CACHE")
    assert environments.cache_dir().parts[-2:] == (".cache", "kusari-bench")


def test_kusari_runs_in_this_interpreter():
    assert environments.ensure("kusari") == sys.executable


def test_unknown_framework():
    with pytest.raises(ValueError, match="unknown framework 'jax'"):
        environments.ensure("jax")


def test_a_ready_environment_is_reused_without_building(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_BENCH_CACHE", str(tmp_path))
    env = tmp_path / "envs" / "torch"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").touch()
    (env / environments.READY_MARKER).write_text(environments.RECIPES["torch"].fingerprint())
    monkeypatch.setattr(environments, "_run", lambda *args: pytest.fail("nothing should be built"))
    assert environments.ensure("torch", log=lambda _: None) == str(env / "bin" / "python")


def test_a_stale_marker_rebuilds_and_a_missing_base_python_is_reported(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_BENCH_CACHE", str(tmp_path))
    env = tmp_path / "envs" / "chainer"
    (env / "bin").mkdir(parents=True)
    (env / "bin" / "python").touch()
    (env / environments.READY_MARKER).write_text("an older recipe")
    monkeypatch.setattr(environments.shutil, "which", lambda name: None)
    with pytest.raises(environments.EnvironmentUnavailable, match="chainer: python3.11 was not found"):
        environments.ensure("chainer", log=lambda _: None)


def test_a_failing_step_is_reported_with_its_log(monkeypatch, tmp_path):
    monkeypatch.setenv("KUSARI_BENCH_CACHE", str(tmp_path))
    monkeypatch.setattr(environments.shutil, "which", lambda name: "/bin/false")
    with pytest.raises(environments.EnvironmentUnavailable,
                       match=r"torch: creating the venv exited with code 1; see .*torch-install.log"):
        environments.ensure("torch", log=lambda _: None)
    assert not (tmp_path / "envs" / "torch" / environments.READY_MARKER).exists()
