"""Commands to a running Trainer through the API: a tiny classifier trains for a few hundred iterations
with CommandsExtension while the test, from inside the loop, posts commands as the page would."""
import json
import os

import numpy
import pytest

import kusari.links as L
from kusari import iterators, optimizers, training
from kusari.training import extensions
from kusari.training.triggers import ManualScheduleTrigger
from kusari.ui import commands, save_args
from kusari.ui.extensions import CommandsExtension


def _trainer(out, optimizer, iterations=300):
    """A 4-feature, 2-class linear classifier; LogReport every 10 iterations with the learning rate."""
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32)
    model = L.Classifier(L.Linear(4, 2))
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(iterators.SerialIterator(list(zip(x, t)), 8), optimizer)
    trainer = training.Trainer(updater, (iterations, "iteration"), out=str(out))
    trainer.extend(CommandsExtension())
    trainer.extend(extensions.observe_value("alpha", lambda tr: optimizer.hyperparam.get_dict().get("alpha", 0.0)),
                   trigger=(1, "iteration"))
    trainer.extend(extensions.observe_lr(), trigger=(1, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(10, "iteration")))
    save_args({"optimizer": type(optimizer).__name__}, str(out))
    return trainer


def _at(trainer, iteration, action):
    """Run ``action()`` from inside the loop once, after ``iteration``."""
    trainer.extend(training.make_extension(trigger=ManualScheduleTrigger([iteration], "iteration"))(
        lambda tr: action()), name=f"at_{iteration}")


@pytest.fixture
def run(api, tmp_path):
    """``(run folder, post(name, body) -> response)`` for a registered project with one run folder."""
    project = tmp_path / "proj"
    out = project / "run"
    out.mkdir(parents=True)
    save_args({}, str(out))
    assert api.post("/api/v1/projects", json={"project": {"path_name": str(project)}}).status_code == 200
    (result,) = api.get("/api/v1/projects/1/results").json()["results"]
    url = f"/api/v1/projects/1/results/{result['id']}/commands"
    return out, lambda name, body=None: api.post(url, json={"name": name, "body": body})


def _log(out):
    with open(os.path.join(out, "log")) as f:
        return json.load(f)


def test_stop_ends_the_run_and_the_answer_comes_back(api, run):
    out, post = run
    trainer = _trainer(out, optimizers.MomentumSGD(lr=0.01))
    posted = []
    _at(trainer, 50, lambda: posted.append(post("stop")))
    trainer.run()
    assert posted[0].status_code == 200, posted[0].text
    assert trainer.updater.iteration == 51   # the command is read at the next iteration's end
    assert _log(out)[-1]["iteration"] == 50
    (command,) = api.get("/api/v1/projects/1/results/1/commands").json()["commands"]
    assert command["name"] == "stop" and "token" not in command["request"]
    assert command["response"]["status"] == "SUCCESS" and command["response"]["iteration"] == 51
    # training ended: the token is gone and the API says no Trainer answers there
    assert not os.path.exists(os.path.join(out, commands.TOKEN_FILE))
    late = post("stop")
    assert late.status_code == 400 and "no Trainer with CommandsExtension is running" in late.json()["message"]


@pytest.mark.parametrize("make, key, value", [
    (lambda: optimizers.MomentumSGD(lr=0.01), "lr", 0.001),
    (lambda: optimizers.Adam(alpha=0.01), "alpha", 0.002),
])
def test_adjust_hyperparams_changes_the_optimizer_between_iterations(run, make, key, value):
    out, post = run
    optimizer = make()
    trainer = _trainer(out, optimizer, iterations=200)
    answers = []
    _at(trainer, 100, lambda: answers.append(post("adjust_hyperparams", {"hyperparam": {key: value}})))
    trainer.run()
    assert answers[0].status_code == 200, answers[0].text
    logged = {entry["iteration"]: entry[key] for entry in _log(out)}
    assert logged[100] == pytest.approx(0.01)
    # read after iteration 101 (observed before the change), so 102..110 ran with the new value
    assert logged[110] == pytest.approx((0.01 + 9 * value) / 10, rel=1e-6)
    assert logged[120] == pytest.approx(value, rel=1e-6) and logged[200] == pytest.approx(value, rel=1e-6)
    assert answers[0].json()["commands"][0]["response"] is None   # answered after the POST returned
    history = commands.history(str(out))
    assert history[0]["response"]["body"] == {"hyperparam": {key: value}, "previous": {key: 0.01}}


def test_snapshot_in_both_spellings_and_refusals(api, run):
    out, post = run
    trainer = _trainer(out, optimizers.SGD(lr=0.01), iterations=60)
    _at(trainer, 20, lambda: post("take_snapshot"))
    _at(trainer, 30, lambda: post("take_sampshot", {"filename": "snap_{.updater.iteration}"}))
    _at(trainer, 40, lambda: post("adjust_hyperparams", {"hyperparam": {"momentum": 0.9}}))
    _at(trainer, 41, lambda: post("adjust_hyperparams", {"hyperparam": {"lr": -1}}))
    trainer.run()
    assert os.path.isfile(out / "snapshot_iter_21") and os.path.isfile(out / "snap_31")
    responses = [c["response"] for c in commands.history(str(out))]
    assert [r["status"] for r in responses] == ["SUCCESS", "SUCCESS", "FAILURE", "FAILURE"]
    assert responses[2]["body"]["error"] == "adjust_hyperparams: SGD has no hyperparameter 'momentum'; it has ['lr']"
    assert responses[3]["body"]["error"] == "adjust_hyperparams: lr must be a finite number >= 0, got -1"
    assert trainer.updater.get_optimizer("main").lr == 0.01
    snapshots = api.get("/api/v1/projects/1/results/1").json()["result"]["snapshots"]
    assert [s["name"] for s in snapshots] == ["snapshot_iter_21"]


def test_a_command_without_the_token_is_reported_not_executed(run):
    out, post = run
    trainer = _trainer(out, optimizers.SGD(lr=0.01), iterations=40)
    # another local process writes a request straight into the folder, without the owner's token
    _at(trainer, 10, lambda: commands.append_request(str(out), "stop", None, token="guessed"))
    with pytest.warns(UserWarning, match=r"command 0 \('stop'\) has no valid token: not executed"):
        trainer.run()
    assert trainer.updater.iteration == 40
    (command,) = commands.history(str(out))
    assert command["response"]["status"] == "FAILURE" and "no valid token" in command["response"]["body"]["error"]


def test_unknown_commands_and_bad_bodies_are_refused_by_the_api(run):
    out, post = run
    commands.write_token(str(out))   # as if a Trainer ran there
    assert os.stat(out / commands.TOKEN_FILE).st_mode & 0o777 == 0o600   # other users cannot read it
    assert post("reboot").json()["message"].startswith("command name must be one of take_snapshot")
    assert post("stop", [1]).json()["message"] == "command body must be a JSON object or null, got list"
    assert commands.load_requests(str(out)) == []
