"""The store and the crawler: ``db create|upgrade`` through Alembic, ``project create``, discovery of the
runs under a project, and a malformed log skipped with a warning."""
import json
import os

import numpy
import pytest
import sqlalchemy as sa
from sqlalchemy import orm

from kusari.ui import assets, cli, crawler, save_args, store


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
        assert connection.execute(sa.text("select version_num from alembic_version")).scalar() == "0003"


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
        assert runs["a"].entries() == [{"main/loss": 1.0, "iteration": 10}, {"main/loss": None, "iteration": 20}]
        assert (runs["a"].log_count, json.loads(runs["a"].log_keys)) == (2, ["main/loss", "iteration"])
        columns = runs["a"].columns()
        assert list(columns) == ["main/loss", "iteration"] and columns["iteration"].tolist() == [10, 20]
        assert columns["main/loss"][0] == 1.0 and numpy.isnan(columns["main/loss"][1])
        assert json.loads(runs[os.path.join("b", "deep")].args) == {"lr": 0.1, "batchsize": 32}
        assert runs["c"].entries() == [] and "c/log is not complete JSON" in runs["c"].log_error
        # the run finishes writing its log: the next crawl reads it
        _write_log(project_dir / "c", [{"main/loss": 2.0, "iteration": 1}])
        crawler.crawl_project(session, project)
        assert runs["c"].entries() == [{"main/loss": 2.0, "iteration": 1}] and runs["c"].log_error is None
        assert len(project.results) == 3


def test_save_args_takes_a_namespace_and_refuses_other_types(tmp_path):
    import argparse
    path = save_args(argparse.Namespace(lr=0.5, out=tmp_path), str(tmp_path / "run"))
    assert json.loads(open(path).read()) == {"lr": 0.5, "out": str(tmp_path)}
    with pytest.raises(TypeError, match="save_args: args must be an argparse.Namespace or a dict, got list"):
        save_args([1], str(tmp_path))


def test_upgrade_from_0001_moves_each_runs_log_entries_and_downgrade_moves_them_back(tmp_path):
    """0002 replaced the per-entry log table by one row per run: users' logs survive both ways."""
    from alembic import command
    url = f"sqlite:///{tmp_path / 'ui.sqlite'}"
    config = store._alembic_config(url)
    command.upgrade(config, "0001")
    entries = {1: [{"iteration": 1, "main/loss": 0.5}, {"iteration": 2, "main/loss": 0.25, "lr": 0.1}],
               2: [{"iteration": 5}]}
    eng = store.engine(url)
    with eng.begin() as connection:
        connection.execute(sa.text("insert into project (id, path_name, name) values (1, '/p', 'p')"))
        for result_id, rows in entries.items():
            connection.execute(sa.text("insert into result (id, project_id, path_name, name) values (:i, 1, :p, 'r')"),
                               {"i": result_id, "p": f"/p/{result_id}"})
            for index, entry in reversed(list(enumerate(rows))):   # the index, not the row order, counts
                connection.execute(sa.text('insert into log (result_id, "index", data) values (:r, :i, :d)'),
                                   {"r": result_id, "i": index, "d": json.dumps(entry)})
        connection.execute(sa.text("insert into result (id, project_id, path_name, name) values (3, 1, '/p/3', 'r')"))
    command.upgrade(config, "head")
    with orm.Session(eng) as session:
        runs = {r.id: r for r in session.scalars(sa.select(store.Result))}
        assert {i: r.entries() for i, r in runs.items()} == {**entries, 3: []}
        assert (runs[1].log_count, json.loads(runs[1].log_keys), json.loads(runs[1].log_last)) == (
            2, ["iteration", "main/loss", "lr"], entries[1][1])
        assert (runs[3].log_count, runs[3].log_keys, runs[3].log_error) == (0, None, None)
        lr = runs[1].columns()["lr"]
        assert runs[1].columns()["main/loss"].tolist() == [0.5, 0.25] and numpy.isnan(lr[0]) and lr[1] == 0.1
    command.downgrade(config, "0001")
    with eng.connect() as connection:
        rows = connection.execute(sa.text('select result_id, "index", data from log order by result_id, "index"')).all()
    assert [(r, i, json.loads(d)) for r, i, d in rows] == [
        (r, i, e) for r, run in entries.items() for i, e in enumerate(run)]


def test_columns_keep_only_numbers_of_each_key_in_entry_order():
    entries = [{"iteration": 1, "note": "warmup", "ok": True}, {"iteration": 2, "note": 0.5}, {"loss": None}]
    keys = ["iteration", "note", "ok", "loss"]
    result = store.Result(log_keys=json.dumps(keys), log=store.RunLog(columns=store.encode_columns(entries, keys)))
    got = {k: v.tolist() for k, v in result.columns().items()}
    nan = float("nan")
    assert list(got) == keys and all(len(v) == 3 for v in got.values())
    assert numpy.array_equal(numpy.array([got[k] for k in keys]), numpy.array(
        [[1, 2, nan], [nan, 0.5, nan], [nan, nan, nan], [nan, nan, nan]]), equal_nan=True)


def test_read_log_turns_nan_infinity_and_overflowing_numbers_into_null(tmp_path):
    """The stored JSON must be strict JSON (the API refuses NaN): the file's own text is kept only when
    it holds none of them."""
    path = tmp_path / "log"
    path.write_text('[{"a": NaN, "b": -Infinity, "c": 1e999, "d": 1e-05}]')
    entries, text = crawler.read_log(str(path))
    assert entries == [{"a": None, "b": None, "c": None, "d": 1e-05}]
    assert json.loads(text, parse_constant=lambda name: pytest.fail(f"{name} in the stored JSON")) == entries
    path.write_text('[{"iteration": 1, "lr": 1e-05}]')
    assert crawler.read_log(str(path)) == ([{"iteration": 1, "lr": 1e-05}], '[{"iteration": 1, "lr": 1e-05}]')


def test_0003_adds_the_asset_table_and_its_downgrade_keeps_the_other_rows(db_url, tmp_path):
    from alembic import command
    (tmp_path / "proj" / "run").mkdir(parents=True)
    (tmp_path / "proj" / "run" / "plot.png").write_bytes(b"\x89PNG")
    save_args({"lr": 0.1}, str(tmp_path / "proj" / "run"))
    eng = store.engine(db_url)
    with orm.Session(eng) as session:
        project = store.create_project(session, str(tmp_path / "proj"))
        crawler.crawl_project(session, project)
        ((asset, _),) = assets.collect(session, project.results[0])
        assert (asset.id, asset.name) == (1, "plot.png")
    command.downgrade(store._alembic_config(db_url), "0002")
    with eng.connect() as connection:
        assert "asset_file" not in sa.inspect(connection).get_table_names()
        assert connection.execute(sa.text("select args from result")).scalar() == '{\n    "lr": 0.1\n}'
    store.upgrade(db_url)
    with orm.Session(eng) as session:
        ((asset, _),) = assets.collect(session, session.get(store.Result, 1))   # registered again
        assert (asset.id, asset.name) == (1, "plot.png")
