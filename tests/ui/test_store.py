"""The store and the crawler: ``db create|upgrade`` through Alembic, ``project create``, discovery of the
runs under a project, and a malformed log skipped with a warning."""
import json
import os

import pytest
import sqlalchemy as sa
from sqlalchemy import orm

from kusari.ui import cli, crawler, save_args, store


def _write_log(run_dir, entries):
    os.makedirs(run_dir, exist_ok=True)
    with open(os.path.join(run_dir, "log"), "w") as f:
        json.dump(entries, f)


def test_db_create_then_upgrade_keep_data(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'sub' / 'ui.sqlite'}"
    assert cli.main(["--db", url, "db", "create"]) == 0
    (tmp_path / "proj").mkdir()
    assert cli.main(["--db", url, "project", "create", "-d", str(tmp_path / "proj"), "-n", "mnist"]) == 0
    assert cli.main(["--db", url, "db", "upgrade"]) == 0
    eng = store.engine(url)
    store.check_current(eng)
    with orm.Session(eng) as session:
        (project,) = session.scalars(sa.select(store.Project))
        assert (project.name, project.path_name) == ("mnist", str(tmp_path / "proj"))
    with eng.connect() as connection:
        assert connection.execute(sa.text("select version_num from alembic_version")).scalar() == "0001"


def test_default_store_is_under_kusari_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KUSARI_HOME", str(tmp_path / "home"))
    assert store.default_url() == "sqlite:///" + str(tmp_path / "home" / "ui" / "db.sqlite")
    store.upgrade()
    assert (tmp_path / "home" / "ui" / "db.sqlite").is_file()


def test_commands_refuse_a_store_not_created(tmp_path, capsys):
    url = f"sqlite:///{tmp_path / 'none.sqlite'}"
    assert cli.main(["--db", url, "project", "create", "-d", str(tmp_path)]) == 1
    assert "kusari-ui db upgrade" in capsys.readouterr().err


def test_project_create_refuses_a_missing_folder_and_a_second_registration(db_url, tmp_path, capsys):
    assert cli.main(["--db", db_url, "project", "create", "-d", str(tmp_path / "nope")]) == 1
    assert "is not a folder" in capsys.readouterr().err
    assert cli.main(["--db", db_url, "project", "create", "-d", str(tmp_path)]) == 0
    assert cli.main(["--db", db_url, "project", "create", "-d", str(tmp_path)]) == 1
    assert "already registered" in capsys.readouterr().err


def test_crawler_finds_runs_reads_logs_and_args_and_skips_a_broken_log(db_url, tmp_path):
    project_dir = tmp_path / "proj"
    _write_log(project_dir / "a", [{"main/loss": 1.0, "iteration": 10}, {"main/loss": float("nan"), "iteration": 20}])
    save_args({"lr": 0.1, "batchsize": 32}, str(project_dir / "b" / "deep"))
    (project_dir / "c").mkdir()
    (project_dir / "c" / "log").write_text('[{"main/loss": 1.0, "iteration": 1')   # half written
    (project_dir / "not_a_run").mkdir()
    with orm.Session(store.engine(db_url), expire_on_commit=False) as session:
        project = store.create_project(session, str(project_dir))
        with pytest.warns(UserWarning, match=r"skipping the log of run .*c: read_log: .*c/log is not complete JSON"):
            crawler.crawl_project(session, project)
        runs = {r.name: r for r in project.results}
        assert sorted(runs) == ["a", os.path.join("b", "deep"), "c"]
        assert [json.loads(log.data) for log in runs["a"].logs] == [
            {"main/loss": 1.0, "iteration": 10}, {"main/loss": None, "iteration": 20}]
        assert json.loads(runs[os.path.join("b", "deep")].args) == {"lr": 0.1, "batchsize": 32}
        assert runs["c"].logs == []
        # the run finishes writing its log: the next crawl reads it
        _write_log(project_dir / "c", [{"main/loss": 2.0, "iteration": 1}])
        crawler.crawl_project(session, project)
        assert [json.loads(log.data) for log in runs["c"].logs] == [{"main/loss": 2.0, "iteration": 1}]
        assert len(project.results) == 3


def test_save_args_takes_a_namespace_and_refuses_other_types(tmp_path):
    import argparse
    path = save_args(argparse.Namespace(lr=0.5, out=tmp_path), str(tmp_path / "run"))
    assert json.loads(open(path).read()) == {"lr": 0.5, "out": str(tmp_path)}
    with pytest.raises(TypeError, match="save_args: args must be an argparse.Namespace or a dict, got list"):
        save_args([1], str(tmp_path))
