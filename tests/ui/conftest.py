"""kusari.ui's tests: skipped cleanly without the [ui] extra (and httpx2, which Starlette's TestClient needs);
fixtures for a fresh store and an API client on it."""
import pytest

for _module in ("starlette", "uvicorn", "sqlalchemy", "alembic", "starlette.testclient"):
    pytest.importorskip(_module, reason="kusari.ui's tests need pip install 'kusari[ui]' httpx2")


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
