import contextlib
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from kusari.dataset._file_lock import file_lock


def test_threads_exclude_each_other(tmp_path):
    lock = str(tmp_path / "x.lock")
    inside = []
    overlaps = []

    def work():
        for _ in range(20):
            with file_lock(lock):
                inside.append(1)
                if len(inside) > 1:
                    overlaps.append(1)
                time.sleep(0.001)
                inside.pop()

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == []
    assert os.listdir(tmp_path) == []   # each holder removed the lock file; waiters started over


def test_lock_file_exists_only_while_held_with_the_mode_of_a_new_file(tmp_path, umask):
    lock = str(tmp_path / "x.lock")
    umask(0o002)
    with file_lock(lock):
        assert stat.S_IMODE(os.stat(lock).st_mode) == 0o664   # a group-writable root stays usable by the group
    assert not os.path.exists(lock)


def _wait_until_open(pid: int, path: str, timeout: float = 60.0) -> None:
    """Wait until process ``pid`` holds ``path`` open (read from Linux's /proc)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            fds = os.listdir(f"/proc/{pid}/fd")
            if any(os.readlink(f"/proc/{pid}/fd/{fd}") == path for fd in fds):
                return
        time.sleep(0.01)
    raise AssertionError(f"process {pid} did not open {path} within {timeout} s")


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="reads which files a process holds from Linux's /proc")
def test_a_waiter_does_not_lock_the_removed_file(tmp_path):
    """The holder removes the lock file; a process that opened it before must lock the new one, so it
    excludes a third that arrives after the removal."""
    lock = str(tmp_path / "x.lock")
    code = ("import sys, time; from kusari.dataset._file_lock import file_lock\n"
            "with file_lock(sys.argv[1]):\n    print('locked', flush=True); time.sleep(float(sys.argv[2]))\n")
    with file_lock(lock):
        waiter = subprocess.Popen([sys.executable, "-c", code, lock, "60"], stdout=subprocess.PIPE, text=True)
        _wait_until_open(waiter.pid, lock)
    try:
        assert waiter.stdout.readline() == "locked\n"
        with pytest.raises(TimeoutError):
            with file_lock(lock, timeout=0.2):
                pass
    finally:
        waiter.kill()
        waiter.wait()
        waiter.stdout.close()


def test_timeout_names_the_lock_file(tmp_path):
    lock = str(tmp_path / "x.lock")
    with file_lock(lock):
        holder_done = threading.Event()
        errors = []

        def contender():
            try:
                with file_lock(lock, timeout=0.1):
                    pass
            except TimeoutError as e:
                errors.append(str(e))
            holder_done.set()

        threading.Thread(target=contender).start()
        assert holder_done.wait(10)
    assert errors == [f"file_lock: could not lock {lock} within 0.1 s: another process or thread holds it"]
    with file_lock(lock, timeout=0.1):  # free again
        pass


def test_lock_of_a_killed_process_is_released(tmp_path):
    lock = str(tmp_path / "x.lock")
    code = ("import sys, time; from kusari.dataset._file_lock import file_lock\n"
            "with file_lock(sys.argv[1]):\n    print('locked', flush=True); time.sleep(60)\n")
    child = subprocess.Popen([sys.executable, "-c", code, lock], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline() == "locked\n"
        with pytest.raises(TimeoutError):
            with file_lock(lock, timeout=0.1):
                pass
    finally:
        child.kill()
        child.wait()
        child.stdout.close()
    with file_lock(lock, timeout=5):
        assert os.path.exists(lock)
