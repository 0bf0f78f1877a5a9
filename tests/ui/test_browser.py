"""The page in a real browser (headless Chromium through Playwright) against the real server: a Trainer
trains in a thread while the page charts it, sorts and filters the run table, and sends it
``adjust_hyperparams`` and ``stop``; server text is shown as text; an unreadable log is flagged.

About 15 s together on two cores, so they run in the main suite (skipped without playwright or Chromium).
"""
import json
import os
import threading
import time
import urllib.request

import numpy
import pytest

import kusari.links as L
from kusari import iterators, optimizers, training
from kusari.training import extensions
from kusari.ui import save_args, store
from kusari.ui.extensions import CommandsExtension

pytest.importorskip("playwright.sync_api", reason="the browser tests need pip install playwright")
from playwright.sync_api import expect  # noqa: E402

SAFETY_STOP = 20_000   # iterations: the test stops the run from the page long before


def _register(db_url, project_dir, name="demo") -> None:
    from sqlalchemy import orm
    with orm.Session(store.engine(db_url)) as session:
        store.create_project(session, str(project_dir), name)


def _finished_run(out, lr, optimizer, losses):
    save_args({"lr": lr, "optimizer": optimizer}, str(out))
    with open(os.path.join(out, "log"), "w") as f:
        json.dump([{"iteration": 10 * (i + 1), "epoch": i, "main/loss": v} for i, v in enumerate(losses)], f)


def _live_trainer(out):
    """A linear classifier on 64 points, LogReport every 10 iterations with the learning rate; each
    iteration sleeps 10 ms, so the run lasts while the page works (and leaves the two cores to it)."""
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32)
    model = L.Classifier(L.Linear(4, 2))
    optimizer = optimizers.MomentumSGD(lr=0.05)
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(iterators.SerialIterator(list(zip(x, t)), 8), optimizer)
    trainer = training.Trainer(updater, (SAFETY_STOP, "iteration"), out=str(out))
    save_args({"lr": 0.05, "optimizer": "momentum_sgd"}, str(out))
    trainer.extend(CommandsExtension())
    trainer.extend(extensions.observe_lr(), trigger=(1, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(10, "iteration")))
    trainer.extend(lambda tr: time.sleep(0.01), trigger=(1, "iteration"), name="pace")
    return trainer, optimizer


def _names(page) -> list[str]:
    return page.locator("#runs tbody tr").evaluate_all("rows => rows.map(r => r.dataset.run)")


def test_the_page_charts_a_training_run_sorts_filters_and_steers_it(db_url, ui_server, page, tmp_path):
    project = tmp_path / "proj"
    _finished_run(project / "a_sgd", 0.1, "sgd", [1.0, 0.8, 0.7])
    _finished_run(project / "b_adam", 0.001, "adam", [0.9, 0.5, 0.4])
    _register(db_url, project)
    trainer, optimizer = _live_trainer(project / "live")
    failure = []

    def train():
        try:
            trainer.run()
        except BaseException as e:   # reported by the test, not lost in the thread
            failure.append(e)

    thread = threading.Thread(target=train, daemon=True)
    thread.start()
    try:
        page.goto(ui_server.url + "/?refresh=0.5")
        expect(page.locator('#runs tr[data-run="live"]')).to_be_visible()
        assert sorted(_names(page)) == ["a_sgd", "b_adam", "live"]

        # the chart follows the run: its last iteration grows from one refresh to a later one
        page.wait_for_function("() => state.plot && state.plot.series.some(s => s.label === 'live')")
        assert page.evaluate("state.plot.series.map(s => s.label)") == ["iteration", "a_sgd", "b_adam", "live"]
        assert page.locator("#ykey").input_value() == "main/loss"
        first = page.evaluate("state.plot.data[0].at(-1)")
        page.wait_for_function("first => state.plot.data[0].at(-1) >= first + 50", arg=first)

        # sort by the lr column, both ways; filter by an argument value
        page.locator("#runs th", has_text="lr").click()
        assert _names(page) == ["b_adam", "live", "a_sgd"]
        page.locator("#runs th", has_text="lr").click()
        assert _names(page) == ["a_sgd", "live", "b_adam"]
        page.fill("#filter", "adam")
        assert _names(page) == ["b_adam"]
        page.fill("#filter", "")
        assert len(_names(page)) == 3

        # a new learning rate, then stop, from the run's buttons; the Trainer's answers show in the row
        live = page.locator('#runs tr[data-run="live"]')
        page.once("dialog", lambda dialog: dialog.accept("0.001"))
        live.get_by_role("button", name="lr…").click()
        expect(live).to_contain_text("adjust_hyperparams: SUCCESS", timeout=20_000)
        # a whole LogReport interval at the new rate before the stop, however slowly the loaded machine
        # trains (at load 14 the stop once landed in the interval of the change)
        with open(project / "live" / "commands.responses") as f:
            changed_at = json.load(f)["0"]["iteration"]
        deadline = time.monotonic() + 30
        while trainer.updater.iteration < changed_at + 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        live.get_by_role("button", name="stop").click()
        expect(live).to_contain_text("stop: SUCCESS", timeout=20_000)
    finally:
        if thread.is_alive() and not os.path.exists(project / "live" / "commands"):
            trainer.stop_trigger = lambda tr: True   # the page never reached the run: end it anyway
        thread.join(timeout=60)
    assert not thread.is_alive() and not failure, failure
    assert optimizer.lr == 0.001
    stopped_at = trainer.updater.iteration
    assert stopped_at < SAFETY_STOP
    with open(project / "live" / "log") as f:
        lrs = [entry["lr"] for entry in json.load(f)]
    # LogReport averages over 10 iterations: 0.05 before, 0.001 after, one mixed interval at most between
    assert lrs[0] == pytest.approx(0.05) and lrs[-1] == pytest.approx(0.001)
    assert sum(not (v == pytest.approx(0.05) or v == pytest.approx(0.001)) for v in lrs) <= 1
    with open(project / "live" / "commands.responses") as f:
        responses = json.load(f)
    assert [r["status"] for r in responses.values()] == ["SUCCESS", "SUCCESS"]
    assert responses["1"]["iteration"] == stopped_at


def test_the_page_shows_server_text_as_text_and_flags_an_unreadable_log(db_url, ui_server, page, tmp_path):
    project = tmp_path / "proj"
    name = "<img src=x onerror=document.title='pwned'>"
    _finished_run(project / name, "<b>0.1</b>", "sgd", [1.0, 0.5])
    (project / "broken").mkdir()
    (project / "broken" / "log").write_text('[{"iteration": 10, "main/loss": 1.0}, {"itera')   # half written
    _register(db_url, project)
    page.goto(ui_server.url + "/")
    expect(page.locator("#status")).to_have_text("demo: 2 runs, 1 with an unreadable log")
    row = page.locator("#runs tbody tr").filter(has_text="<img")
    assert row.locator("td").nth(2).inner_text() == name
    assert "<b>0.1</b>" in row.inner_text()
    assert page.locator("#runs img, #runs b").count() == 0 and page.title() == "kusari-ui"
    warning = page.locator('#runs tr[data-run="broken"] .warning')
    assert warning.inner_text().strip() == "⚠ log unreadable"
    assert "broken/log is not complete JSON" in warning.get_attribute("title")
    assert "skipping the log of run" in ui_server.output()   # and the server went on serving the page
    # the run's own page shows the same text as text
    row.locator("a").click()
    expect(page.locator("#run-name")).to_have_text(name)
    expect(page.locator("#run-args td").first).to_have_text("<b>0.1</b>")
    assert page.locator("#run img, #run b").count() == 0 and page.title() == "kusari-ui"


def _post(url: str, body: dict) -> dict:
    """POST ``body`` as JSON to ``url``; the answer's JSON."""
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"content-type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.load(response)


def _rows(page, selector) -> list[list[str]]:
    return page.locator(selector + " tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.cells].map(c => c.textContent))")


def test_the_run_page_shows_its_log_images_and_the_trainers_answers(db_url, ui_server, page, tmp_path,
                                                                       train_with_images):
    project = tmp_path / "proj"
    out = project / "trained"
    save_args({}, str(out))
    _register(db_url, project)
    save_args({"lr": 1.0}, str(tmp_path / "other" / "elsewhere"))
    _register(db_url, tmp_path / "other", "other")
    with urllib.request.urlopen(ui_server.url + "/api/v1/projects/1/results", timeout=30) as response:
        (result,) = json.load(response)["results"]   # the server's first look registers the run
    commands_url = ui_server.url + f"/api/v1/projects/1/results/{result['id']}/commands"
    # the commands the page's buttons send, posted to the server from inside the loop while it trains
    trainer = train_with_images(out, at={
        15: lambda tr: _post(commands_url, {"name": "adjust_hyperparams", "body": {"hyperparam": {"lr": 0.02}}}),
        25: lambda tr: _post(commands_url, {"name": "take_sampshot", "body": None})})
    assert trainer.updater.get_optimizer("main").lr == 0.02

    # the overview charts against the epoch on a log scale, and finds a run that appears meanwhile
    page.goto(ui_server.url + "/?refresh=0.5")
    page.wait_for_function("() => state.plot && state.plot.series.length === 2")
    page.select_option("#xkey", "epoch")
    page.check("#logscale")
    page.wait_for_function("() => state.plot.series[0].label === 'epoch' && state.plot.scales.y.distr === 3")
    with open(out / "log") as f:
        log = json.load(f)
    assert page.evaluate("state.plot.data[0]") == [e["epoch"] for e in log] == [1, 2, 3, 5]
    # smoothing: an exponential moving average with weight 0.9 on the past
    page.evaluate("() => { const s = document.getElementById('smooth'); s.value = '0.9'; s.dispatchEvent(new Event('change')); }")
    ema = [log[0]["main/loss"]]
    for entry in log[1:]:
        ema.append(0.9 * ema[-1] + 0.1 * entry["main/loss"])
    page.wait_for_function("ema => state.plot.data[1].every((y, i) => Math.abs(y - ema[i]) < 1e-9)", arg=ema)
    save_args({"lr": 0.5}, str(project / "late"))
    expect(page.locator('#runs tr[data-run="late"]')).to_be_visible()

    page.locator('#runs tr[data-run="trained"] a').click()
    expect(page.locator("#run-name")).to_have_text("trained")
    assert page.locator("#overview").is_hidden()
    assert _rows(page, "#run-args") == [["lr", "0.05"], ["optimizer", "sgd"]]
    # the log, newest first, every key a column
    expect(page.locator("#run-log tbody tr")).to_have_count(4)
    keys = page.locator("#run-log th").all_text_contents()
    assert keys == list(log[0])
    assert [row[keys.index("iteration")] for row in _rows(page, "#run-log")] == ["40", "30", "20", "10"]
    # the commands with the Trainer's answers, as it wrote them
    with open(out / "commands.responses") as f:
        responses = json.load(f)
    got = _rows(page, "#run-commands")
    assert [(r[1], r[4], r[5]) for r in got] == [
        ("adjust_hyperparams", "SUCCESS", str(responses["0"]["iteration"])),
        ("take_sampshot", "SUCCESS", str(responses["1"]["iteration"]))]
    assert json.loads(got[0][6]) == {"hyperparam": {"lr": 0.02}, "previous": {"lr": 0.05}}
    assert f"snapshot_iter_{responses['1']['iteration']}" in page.locator("#run-path").inner_text()
    # the images, loaded through the assets API: the plot first, then the detection figures, newest first
    expect(page.locator("#run-images img")).to_have_count(5)
    page.wait_for_function("() => [...document.querySelectorAll('#run-images img')].every(i => i.complete && i.naturalWidth > 0)")
    assert page.locator("#run-images h4").all_text_contents() == ["latest", "iteration 40", "iteration 20"]
    assert page.locator("#run-images figcaption").all_text_contents() == [
        "loss.png", "detection_iter=40_idx=0.jpg", "detection_iter=40_idx=1.jpg",
        "detection_iter=20_idx=0.jpg", "detection_iter=20_idx=1.jpg"]
    # the page follows the run: a longer log shows at the next refresh
    (out / "log").write_text(json.dumps(log + [{**log[-1], "iteration": 50}]))
    expect(page.locator("#run-log tbody tr")).to_have_count(5)
    assert _rows(page, "#run-log")[0][keys.index("iteration")] == "50"

    page.locator("a", has_text="‹ all runs").click()
    expect(page.locator('#runs tr[data-run="late"]')).to_be_visible()
    assert page.locator("#run").is_hidden()
    # the project list: another project's runs replace these
    assert page.locator("#projects li").all_text_contents() == ["demo", "other"]
    page.locator("#projects li", has_text="other").click()
    expect(page.locator("#status")).to_have_text("other: 1 runs")
    assert _names(page) == ["elsewhere"]
