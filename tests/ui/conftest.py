"""kusari.ui's tests: skipped cleanly without the [ui] extra (and httpx2, which Starlette's TestClient needs);
fixtures for a fresh store, an API client on it, the real server on a loopback port, and a headless
Chromium driven by Playwright (the browser tests skip, saying why, without playwright or Chromium)."""
import os
import socket
import subprocess
import sys
import time
import urllib.request

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
