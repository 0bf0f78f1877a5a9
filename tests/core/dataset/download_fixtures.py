"""Fixtures for download tests (used by tests/core/dataset and tests/core/datasets): a loopback HTTP
server, an isolated dataset root, a guard that keeps tests off the internet, and a umask setter."""
import contextlib
import functools
import http.server
import os
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

from kusari.dataset import download


class _Handler(http.server.SimpleHTTPRequestHandler):
    """Serves the server's folder; the server's knobs inject failures and delays."""

    def do_GET(self):
        server = self.server
        with server.lock:
            server.hits.append(urllib.parse.unquote(self.path))
            fail = server.fail_next > 0
            server.fail_next -= fail
            truncate = not fail and server.truncate_next > 0
            server.truncate_next -= truncate
        time.sleep(server.delay)
        if fail:
            self.send_error(503, "injected failure")
        elif truncate:
            self.send_response(200)
            self.send_header("Content-Length", "1000")
            self.end_headers()
            self.wfile.write(b"x" * 10)
        else:
            super().do_GET()

    def log_message(self, *args):
        pass


class HttpServer:
    """A threaded HTTP server on 127.0.0.1 (random free port) serving ``directory``."""

    def __init__(self, directory):
        handler = functools.partial(_Handler, directory=str(directory))
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.lock = threading.Lock()
        self._server.hits = []
        self._server.fail_next = 0
        self._server.truncate_next = 0
        self._server.delay = 0.0
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        self._thread = threading.Thread(target=self._server.serve_forever, args=(0.02,), daemon=True)
        self._thread.start()

    @property
    def hits(self) -> list:
        """Request paths received so far."""
        return self._server.hits

    def set(self, fail_next=0, truncate_next=0, delay=0.0):
        """Answer the next ``fail_next`` requests with 503, the next ``truncate_next`` with a short body."""
        self._server.fail_next = fail_next
        self._server.truncate_next = truncate_next
        self._server.delay = delay

    def close(self):
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


@pytest.fixture
def http_server():
    """``http_server(directory)`` starts a loopback server for the folder; all are shut down after."""
    with contextlib.ExitStack() as stack:
        def start(directory):
            server = HttpServer(directory)
            stack.callback(server.close)
            return server
        yield start


@pytest.fixture
def dataset_root(tmp_path, monkeypatch):
    """A fresh, empty dataset root; no download mirror configured."""
    root = tmp_path / "dataset_root"
    monkeypatch.delenv("KUSARI_DOWNLOAD_MIRROR", raising=False)
    download.set_dataset_root(str(root))
    yield root
    download.set_dataset_root(None)


@pytest.fixture(autouse=True)
def no_internet(monkeypatch):
    """Fail any URL opened by kusari that is not on the loopback interface."""
    real_urlopen = urllib.request.urlopen

    def guarded(request, *args, **kwargs):
        url = request.full_url if isinstance(request, urllib.request.Request) else request
        if urllib.parse.urlparse(url).hostname not in ("127.0.0.1", "localhost", None):
            raise urllib.error.URLError(f"tests are offline: refused to open {url}")
        return real_urlopen(request, *args, **kwargs)

    monkeypatch.setattr(urllib.request, "urlopen", guarded)


@pytest.fixture
def umask():
    """``umask(value)`` sets the process umask for the rest of the test (restored after)."""
    previous = os.umask(0o022)
    os.umask(previous)
    yield os.umask
    os.umask(previous)


@pytest.fixture
def fast_retries(monkeypatch):
    """Retry backoff of 10 ms instead of 0.5 s, 1 s, ..."""
    monkeypatch.setattr(download, "_BACKOFF_S", 0.01)


def file_tree(root, files: dict) -> None:
    """Write ``{relative path: bytes}`` under ``root``."""
    for name, data in files.items():
        path = os.path.join(root, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
