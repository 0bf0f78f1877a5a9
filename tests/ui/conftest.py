"""kusari.ui's tests: skipped cleanly without the [ui] extra (and httpx2, which Starlette's TestClient needs);
fixtures for a fresh store, an API client on it, the real server on a loopback port, a headless
Chromium driven by Playwright (the browser tests skip, saying why, without playwright or Chromium),
and a short training run that writes images."""
import os
import socket
import subprocess
import sys
import time
import urllib.request

import numpy
import pytest

for _module in ("starlette", "uvicorn", "sqlalchemy", "alembic", "starlette.testclient"):
    pytest.importorskip(_module, reason="kusari.ui's tests need pip install 'kusari[ui]' httpx2")

# Debian's Chromium (apt-get install chromium): Playwright's own browser download needs the internet
CHROMIUM = os.environ.get("KUSARI_TEST_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"]


@pytest.fixture
def db_url(tmp_path):
    """A new store at its newest schema, in a SQLite file of its own."""
    from kusari.ui import store
    url = f"sqlite:///{tmp_path / 'ui.sqlite'}"
    store.upgrade(url)
    return url


@pytest.fixture
def api(db_url):
    """A TestClient of the API on ``db_url``, sending ``Host: 127.0.0.1:5000`` as a browser would."""
    from starlette.testclient import TestClient

    from kusari.ui.server import create_app
    with TestClient(create_app(db_url), base_url="http://127.0.0.1:5000") as client:
        yield client


class Server:
    """``python -m kusari.ui --db URL server --port PORT`` started as a user does, on a free loopback port;
    its output goes to a file (a pipe nobody reads would fill up with access lines and block it)."""

    def __init__(self, db_url: str, log_path):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log_path
        with open(log_path, "w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "kusari.ui", "--db", db_url, "server", "--port", str(self.port)],
                stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(self.url + "/api/v1/projects", timeout=5).close()
                return
            except OSError:
                if self.process.poll() is not None or time.monotonic() > deadline:
                    self.stop()
                    raise RuntimeError(f"kusari-ui server did not start:\n{self.output()}") from None
                time.sleep(0.2)

    def output(self) -> str:
        with open(self.log_path) as f:
            return f.read()

    def stop(self) -> str:
        """Stop the server (once) and return everything it printed."""
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=30)
        return self.output()


@pytest.fixture
def ui_server(db_url, tmp_path):
    """The dashboard's server on ``db_url``, serving at ``ui_server.url``."""
    server = Server(db_url, tmp_path / "server.log")
    yield server
    server.stop()


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, headless, through Playwright's sync API: one browser per test module, so that
    Playwright's event loop lives only while browser tests run (0.7 s to launch)."""
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need pip install playwright")
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.skip(f"the browser tests need Chromium at {CHROMIUM} (apt-get install chromium, "
                    f"or set KUSARI_TEST_CHROMIUM)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(chromium):
    """A fresh browser page, 1280x800; closed after the test."""
    context = chromium.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(30_000)
    yield page
    context.close()


class _FixedDetector:
    """A detector stand-in for DetectionVisReport: one box per image, the same every time."""

    def predict(self, imgs):
        n = len(imgs)
        return ([numpy.array([[4.0, 4.0, 20.0, 24.0]], numpy.float32)] * n, [numpy.array([1], numpy.int32)] * n,
                [numpy.array([0.9], numpy.float32)] * n)


def _train_with_images(out, at=None):
    """40 iterations of a linear classifier (lr 0.05, batches of 8 from 64 points: 8 iterations an
    epoch) into ``out``: its ``args``, LogReport and PlotReport (``loss.png``) every 10 iterations,
    DetectionVisReport's figures of two images every 20, CommandsExtension, and ``at[i](trainer)`` run
    from inside the loop after iteration ``i``. Returns the trainer, finished."""
    import kusari.links as L
    from kusari import iterators, optimizers, training
    from kusari.training import extensions
    from kusari.training.triggers import ManualScheduleTrigger
    from kusari.ui import save_args
    from kusari.ui.extensions import CommandsExtension
    from kusari.vision.extensions import DetectionVisReport
    rng = numpy.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(numpy.float32)
    model = L.Classifier(L.Linear(4, 2))
    optimizer = optimizers.SGD(lr=0.05)
    optimizer.setup(model)
    updater = training.updaters.StandardUpdater(
        iterators.SerialIterator(list(zip(x, (x[:, 0] > 0).astype(numpy.int32))), 8), optimizer)
    trainer = training.Trainer(updater, (40, "iteration"), out=str(out))
    save_args({"lr": 0.05, "optimizer": "sgd"}, str(out))
    trainer.extend(CommandsExtension())
    trainer.extend(extensions.observe_lr(), trigger=(1, "iteration"))
    trainer.extend(extensions.LogReport(trigger=(10, "iteration")))
    trainer.extend(extensions.PlotReport(["main/loss"], trigger=(10, "iteration"), filename="loss.png"))
    images = [(rng.uniform(0, 255, (3, 32, 32)).astype(numpy.float32), numpy.array([[2.0, 2.0, 16.0, 20.0]]),
               numpy.array([0])) for _ in range(2)]
    trainer.extend(DetectionVisReport(iterators.SerialIterator(images, 2, repeat=False, shuffle=False),
                                      _FixedDetector(), label_names=("cat", "dog")), trigger=(20, "iteration"))
    for iteration, action in (at or {}).items():
        trainer.extend(training.make_extension(trigger=ManualScheduleTrigger([iteration], "iteration"))(action),
                       name=f"at_{iteration}")
    trainer.run()
    return trainer


@pytest.fixture
def train_with_images():
    """:func:`_train_with_images` (skips without matplotlib, which draws the images)."""
    pytest.importorskip("matplotlib", reason="PlotReport and DetectionVisReport need matplotlib")
    pytest.importorskip("kusari.vision", reason="DetectionVisReport needs pip install 'kusari[vision]'")
    return _train_with_images
