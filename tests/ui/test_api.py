"""The JSON API with ChainerUI's v1 paths and shapes, through Starlette's TestClient (no network):
projects, results, logs, args, input validation and the Host header check against DNS rebinding."""
import json
import os

import pytest

from kusari.ui import save_args


@pytest.fixture
def project_dir(tmp_path):
    """A project folder with one run: a two-entry log and its arguments."""
    run = tmp_path / "proj" / "run1"
    run.mkdir(parents=True)
    (run / "log").write_text(json.dumps([{"main/loss": 2.0, "iteration": 10, "epoch": 0},
                                         {"main/loss": 1.0, "iteration": 20, "epoch": 1}]))
    save_args({"lr": 0.05, "model": "mlp"}, str(run))
    (run / "snapshot_iter_20").write_bytes(b"")
    return tmp_path / "proj"


def _create(api, path, name=None):
    response = api.post("/api/v1/projects", json={"project": {"path_name": str(path), "name": name}})
    assert response.status_code == 200, response.text
    return response.json()["project"]


def test_projects_results_logs_and_args(api, project_dir):
    project = _create(api, project_dir, "demo")
    assert project == {"id": 1, "pathName": str(project_dir), "name": "demo"}
    assert api.get("/api/v1/projects").json() == {"projects": [project]}
    assert api.get("/api/v1/projects/1").json() == {"project": project}
    assert api.get("/api/v1/projects", params={"path_name": str(project_dir)}).json() == {"project": project}

    (result,) = api.get("/api/v1/projects/1/results").json()["results"]
    assert (result["id"], result["name"], result["pathName"]) == (1, "run1", str(project_dir / "run1"))
    assert result["isUnregistered"] is False and result["commands"] == []
    assert result["snapshots"] == [{"id": 0, "iteration": 20, "name": "snapshot_iter_20"}]
    assert result["args"] == [{"resultId": 1, "key": "lr", "value": "0.05"},
                              {"resultId": 1, "key": "model", "value": "mlp"}]
    first = result["logs"][0]
    assert first["resultId"] == 1 and {"logId": first["id"], "key": "main/loss", "value": 2.0} in first["logItems"]
    assert api.get("/api/v1/projects/1/results/1").json() == {"result": result}
    assert api.get("/api/v1/projects/1/results/1/logs").json() == {"logs": result["logs"]}
    assert api.get("/api/v1/projects/1/results/1/args").json() == {"args": result["args"]}
    only_last = api.get("/api/v1/projects/1/results/1", params={"logs_limit": 1}).json()["result"]["logs"]
    assert only_last == result["logs"][-1:]

    # a new run appears at the next listing; a broken one is listed without entries and the server stays up
    (project_dir / "run2").mkdir()
    (project_dir / "run2" / "log").write_text('[{"main/loss": 3.0')
    with pytest.warns(UserWarning, match="skipping the log of run"):
        results = api.get("/api/v1/projects/1/results").json()["results"]
    assert [(r["name"], len(r["logs"])) for r in results] == [("run1", 2), ("run2", 0)]
    assert api.get("/api/v1/projects/1").status_code == 200


@pytest.mark.parametrize("path, status, message", [
    ("/api/v1/projects/7", 404, "no project 7"),
    ("/api/v1/projects/7/results", 404, "no project 7"),
    ("/api/v1/projects/1/results/9", 404, "no result 9 in project 1"),
    ("/api/v1/projects/1/results/1?logs_limit=many", 400, "logs_limit must be an integer, got 'many'"),
    ("/api/v1/projects/1/results/1?logs_limit=-3", 400, "logs_limit must be -1 (all) or >= 0, got -3"),
    ("/api/v1/projects?path_name=/nowhere", 404, "'/nowhere' is not found"),
])
def test_bad_paths_and_queries_are_refused_with_a_message(api, project_dir, path, status, message):
    _create(api, project_dir)
    response = api.get(path)
    assert response.status_code == status
    assert response.json()["message"] == message


@pytest.mark.parametrize("body, message", [
    ("not json", "the request body is not JSON"),
    ("[1]", "the request body must be a JSON object, got list"),
    ('{"project": {"name": "x"}}', "body must be {'project': {'path_name': <folder>, 'name': <optional>}}"),
    ('{"project": {"path_name": "/no/such/folder"}}', "create_project: '/no/such/folder' is not a folder"),
    ('{"project": {"path_name": "/", "name": 3}}', "project name must be a string, got int"),
])
def test_post_project_validates_its_input(api, body, message):
    response = api.post("/api/v1/projects", content=body, headers={"content-type": "application/json"})
    assert response.status_code == 400
    assert response.json()["message"] == message


def test_a_project_is_registered_once(api, project_dir):
    _create(api, project_dir)
    response = api.post("/api/v1/projects", json={"project": {"path_name": str(project_dir)}})
    assert response.status_code == 400 and "already registered" in response.json()["message"]


def test_host_header_other_than_the_bound_address_is_refused(api, db_url, project_dir):
    """DNS rebinding: evil.example resolving to 127.0.0.1 reaches the port, but with its own Host."""
    assert api.get("/api/v1/projects", headers={"host": "evil.example:5000"}).status_code == 400
    assert api.post("/api/v1/projects", headers={"host": "evil.example"},
                    json={"project": {"path_name": str(project_dir)}}).status_code == 400
    assert api.get("/api/v1/projects").json() == {"projects": []}
    assert api.get("/api/v1/projects", headers={"host": "localhost:5000"}).status_code == 200
    from starlette.testclient import TestClient

    from kusari.ui.server import create_app
    behind_proxy = TestClient(create_app(db_url, allowed_hosts=["ui.example.org"]), base_url="https://ui.example.org")
    assert behind_proxy.get("/api/v1/projects").status_code == 200


def test_an_app_on_a_store_not_created_says_what_to_run(tmp_path):
    from kusari.ui.server import create_app
    with pytest.raises(RuntimeError, match="run 'kusari-ui db upgrade'"):
        create_app(f"sqlite:///{tmp_path / 'new.sqlite'}")
    assert os.listdir(tmp_path) in ([], ["new.sqlite"])


def test_concurrent_listings_register_each_new_run_once(api, project_dir):
    """The page polls from several tabs: crawls that overlap must not register a run twice."""
    from concurrent.futures import ThreadPoolExecutor
    _create(api, project_dir)
    for i in range(2, 8):
        (project_dir / f"run{i}").mkdir()
        save_args({"i": i}, str(project_dir / f"run{i}"))
    with ThreadPoolExecutor(4) as pool:
        responses = list(pool.map(lambda _: api.get("/api/v1/projects/1/results"), range(8)))
    assert [r.status_code for r in responses] == [200] * 8
    names = [r["name"] for r in api.get("/api/v1/projects/1/results").json()["results"]]
    assert names == [f"run{i}" for i in range(1, 8)]


def test_kusari_ui_server_binds_loopback_and_serves_the_api(ui_server):
    """The real server (uvicorn) started as a user does, on a free loopback port."""
    import urllib.request
    with urllib.request.urlopen(ui_server.url + "/api/v1/projects", timeout=5) as response:
        assert json.load(response) == {"projects": []}
    assert f"Uvicorn running on http://127.0.0.1:{ui_server.port}" in ui_server.stop()



def test_series_keeps_ends_and_extremes_when_reduced_and_smooths_over_every_entry(api, tmp_path):
    run = tmp_path / "proj" / "long"
    run.mkdir(parents=True)
    loss = [1.0 / (i + 1) for i in range(10_000)]
    loss[4321] = 50.0   # a spike that an evenly spaced sample would miss
    entries = [{"iteration": i + 1, "main/loss": v} for i, v in enumerate(loss)]
    entries[7] = {"iteration": 8}   # an entry without the key is left out
    (run / "log").write_text(json.dumps(entries))
    _create(api, tmp_path / "proj")
    url = "/api/v1/projects/1/series"
    (got,) = api.get(url, params={"results": 1, "y": "main/loss", "points": 100}).json()["series"]
    assert got["count"] == 10_000 and len(got["x"]) == len(got["y"]) <= 100
    assert (got["x"][0], got["x"][-1], got["y"][-1]) == (1, 10_000, loss[-1])
    assert got["y"][got["x"].index(4322)] == 50.0 and got["x"] == sorted(got["x"])
    (full,) = api.get(url, params={"results": 1, "y": "main/loss", "points": 20_000}).json()["series"]
    assert len(full["x"]) == 9_999 and 8 not in full["x"]

    ema, s = [], None
    for v in loss[:7] + loss[8:]:
        s = v if s is None else 0.9 * s + 0.1 * v
        ema.append(s)
    (smooth,) = api.get(url, params={"results": 1, "y": "main/loss", "points": 20_000, "smoothing": 0.9}).json()["series"]
    assert smooth["y"] == pytest.approx(ema)

    (by_epoch,) = api.get(url, params={"results": 1, "y": "main/loss", "x": "epoch"}).json()["series"]
    assert (by_epoch["x"], by_epoch["y"]) == ([], [])


@pytest.mark.parametrize("entries", [10_000, 9_999, 1_003, 57])
@pytest.mark.parametrize("points", [4, 5, 101, 800, 1_000])
def test_series_reduction_has_no_empty_bucket(entries, points):
    """Every bucket of the reduction holds an entry: 10,000 entries at 800 points made buckets of padding
    only, and the series request of the 1,000-run page failed (All-NaN slice)."""
    import numpy
    from kusari.ui.server import series
    xs = numpy.arange(entries, dtype=float)
    got_x, got_y = series({"iteration": xs, "loss": numpy.cos(xs)}, "iteration", "loss", points)
    assert got_x[0] == 0 and got_x[-1] == entries - 1
    assert len(got_x) == len(got_y) <= max(points, entries if entries <= points else 0)
    assert got_y == numpy.cos(numpy.asarray(got_x)).tolist()


def test_series_of_several_runs_in_one_request(api, project_dir):
    save_args({}, str(project_dir / "a_no_log"))
    _create(api, project_dir)   # run 1 is a_no_log, run 2 run1
    got = api.get("/api/v1/projects/1/series", params={"results": "2,1", "y": "main/loss"}).json()["series"]
    assert got == [{"resultId": 2, "x": [10.0, 20.0], "y": [2.0, 1.0], "count": 2},
                   {"resultId": 1, "x": [], "y": [], "count": 0}]


@pytest.mark.parametrize("query, status, message", [
    ("results=1", 400, "series: the query needs y=<logged key>"),
    ("results=1&y=main/loss&points=3", 400, "points must be >= 4, got 3"),
    ("results=1&y=main/loss&points=x", 400, "points must be an integer, got 'x'"),
    ("results=1&y=main/loss&smoothing=1", 400, "smoothing must be a number in [0, 1), got '1'"),
    ("results=1&y=main/loss&smoothing=nan", 400, "smoothing must be a number in [0, 1), got 'nan'"),
    ("y=main/loss", 400, "series: results must be result ids separated by commas, got ''"),
    ("results=1,a&y=main/loss", 400, "series: results must be result ids separated by commas, got '1,a'"),
    ("results=" + ",".join(["1"] * 101) + "&y=main/loss", 400, "series: at most 100 results at once, got 101"),
    ("results=1,5&y=main/loss", 404, "no result 5 in project 1"),
])
def test_series_validates_its_query(api, project_dir, query, status, message):
    _create(api, project_dir)
    response = api.get("/api/v1/projects/1/series?" + query)
    assert response.status_code == status and response.json()["message"] == message


def test_listing_gives_the_run_tables_summary_and_an_unreadable_logs_reason(api, project_dir):
    (project_dir / "broken").mkdir()
    (project_dir / "broken" / "log").write_text('[{"iteration": 1')
    with pytest.warns(UserWarning, match="skipping the log of run"):   # once, at the first crawl
        _create(api, project_dir)
    results = api.get("/api/v1/projects/1/results", params={"logs_limit": 1}).json()["results"]
    summary = {r["name"]: (r["logCount"], r["logKeys"], len(r["logs"]), r["logError"]) for r in results}
    assert summary["run1"] == (2, ["main/loss", "iteration", "epoch"], 1, None)
    assert summary["broken"][:3] == (0, [], 0) and "broken/log is not complete JSON" in summary["broken"][3]
    (last,) = next(r for r in results if r["name"] == "run1")["logs"]
    assert last["id"] == 1 and {"logId": 1, "key": "iteration", "value": 20} in last["logItems"]
