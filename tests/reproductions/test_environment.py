"""reproductions.environment: the commit a run records, and when the tree counts as modified."""
import shutil
import subprocess

import pytest

from reproductions import environment

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


@pytest.fixture
def repo(tmp_path):
    """A throwaway git repository with one committed file, ``a.py``."""
    def git(*args):
        return subprocess.run(["git", "-C", str(tmp_path), "-c", "user.name=t", "-c", "user.email=t@t",
                               *args], capture_output=True, text=True, check=True).stdout.strip()
    git("init", "-q")
    (tmp_path / ".gitignore").write_text("ignored/\n")
    (tmp_path / "a.py").write_text("A = 1\n")
    git("add", ".")
    git("commit", "-q", "-m", "one")
    return tmp_path, git("rev-parse", "HEAD")


def test_clean_tree(repo):
    root, head = repo
    (root / "result.json").write_text("{}")  # untracked non-code files do not count
    (root / "ignored").mkdir()
    (root / "ignored" / "b.py").write_text("")  # nor do ignored ones
    assert environment.git_commit(str(root)) == head
    assert environment.is_clean(head)


def test_modified_tracked_file(repo):
    root, head = repo
    (root / "a.py").write_text("A = 2\n")
    assert environment.git_commit(str(root)) == head + "+dirty"
    assert not environment.is_clean(head + "+dirty")


def test_untracked_module(repo):
    root, head = repo
    (root / "pkg").mkdir()
    (root / "pkg" / "new_reproduction.py").write_text("")
    assert environment.git_commit(str(root)) == head + "+dirty"


def test_outside_git(tmp_path):
    assert environment.git_commit(str(tmp_path)) == "unknown"
    assert not environment.is_clean("unknown")
