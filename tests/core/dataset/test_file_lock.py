import os
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
