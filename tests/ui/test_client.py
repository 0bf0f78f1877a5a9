"""kusari.ui.client: ChainerUI's init/log/log_reporter write a run folder that the API then shows."""
import json

import numpy
import pytest

from kusari.ui import client


@pytest.fixture(autouse=True)
def no_run(monkeypatch):
    monkeypatch.setattr(client, "_run", None)


def test_a_hand_written_loop_shows_up_in_the_api(api, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    monkeypatch.setenv("KUSARI_UI_PROJECT_PATH", str(project))
    out = client.init(result_name="sgd", args={"lr": 0.1})
    assert out.startswith(str(project / "sgd-"))
    for i in range(1, 4):
        client.log({"iteration": numpy.int64(i), "main/loss": numpy.float32(1.0 / i)})
    api.post("/api/v1/projects", json={"project": {"path_name": str(project)}})
    (result,) = api.get("/api/v1/projects/1/results").json()["results"]
    assert result["args"] == [{"resultId": 1, "key": "lr", "value": "0.1"}]
    losses = [{i["key"]: i["value"] for i in log["logItems"]} for log in result["logs"]]
    assert losses == [{"iteration": 1, "main/loss": 1.0}, {"iteration": 2, "main/loss": 0.5},
                      {"iteration": 3, "main/loss": pytest.approx(1 / 3)}]


def test_overwrite_result_continues_the_log_and_log_reporter_feeds_it(tmp_path):
    out = client.init(str(tmp_path), result_name="run", overwrite_result=True)
    client.log({"iteration": 1})
    assert client.init(str(tmp_path), result_name="run", overwrite_result=True) == out
    client.log_reporter()({"iteration": 2, "main/loss": 0.25})
    with open(f"{out}/log") as f:
        assert json.load(f) == [{"iteration": 1}, {"iteration": 2, "main/loss": 0.25}]


def test_log_refuses_what_is_not_a_number_and_a_missing_init(tmp_path):
    with pytest.raises(RuntimeError, match=r"log: call kusari.ui.init\(\) first"):
        client.log({"iteration": 1})
    client.init(str(tmp_path))
    with pytest.raises(TypeError, match="log: value 'name' must be a real number, got str"):
        client.log({"name": "x"})
    with pytest.raises(TypeError, match="log: value must be a dict of numbers, got list"):
        client.log([1])
