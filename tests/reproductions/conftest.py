"""Fixtures of the reproduction tests: a git state chosen by the test instead of the checkout's."""
import pytest

from reproductions import environment

CLEAN = "0123456789abcdef0123456789abcdef01234567"


@pytest.fixture
def clean_tree(monkeypatch):
    """The runner sees a clean tree at :data:`CLEAN` (the real checkout may be modified)."""
    monkeypatch.setattr(environment, "git_commit", lambda: CLEAN)
    return CLEAN


@pytest.fixture
def dirty_tree(monkeypatch):
    """The runner sees a modified tree at :data:`CLEAN`."""
    monkeypatch.setattr(environment, "git_commit", lambda: CLEAN + "+dirty")
    return CLEAN + "+dirty"
