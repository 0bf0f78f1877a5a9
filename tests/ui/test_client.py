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


def test_log_reporter_as_logreports_postprocess_copies_each_entry(tmp_path):
    """ChainerUI's habit: ``LogReport(postprocess=log_reporter())`` in a Trainer writes the same entries
    into the run that ``init`` started as into the Trainer's own log."""
    import kusari.links as L
    from kusari import iterators, optimizers, training
    from kusari.training import extensions
    x = numpy.random.default_rng(0).standard_normal((16, 3)).astype(numpy.float32)
    model = L.Classifier(L.Linear(3, 2))
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(
        iterators.SerialIterator(list(zip(x, (x[:, 0] > 0).astype(numpy.int32))), 4), optimizer)
    trainer = training.Trainer(updater, (12, "iteration"), out=str(tmp_path / "trainer"))
    out = client.init(str(tmp_path / "proj"), result_name="copied")
    trainer.extend(extensions.LogReport(trigger=(4, "iteration"), postprocess=client.log_reporter()))
    trainer.run()
    with open(tmp_path / "trainer" / "log") as f:
        expected = json.load(f)
    with open(f"{out}/log") as f:
        assert json.load(f) == expected
    assert [e["iteration"] for e in expected] == [4, 8, 12]
