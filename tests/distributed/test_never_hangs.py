"""Never hangs: a rank killed, or failing in an extension, a thread or an iterator's worker process,
ends the whole job with a non-zero status within 60 s; a collective timeout names the missing rank."""
import sys
import time

import pytest

import kusari.distributed as chainermn

# mpiexec itself gets the pytest-side timeout; a job still running after 60 s would be a hang
LIMIT_S = 60


def _fails_fast(mpi, mode):
    start = time.monotonic()
    result = mpi.launch("w_failure.py", mode, timeout=LIMIT_S + 30)
    elapsed = time.monotonic() - start
    assert result.returncode != 0, result.stdout + result.stderr
    assert elapsed < LIMIT_S, f"{mode}: the job took {elapsed:.0f} s to end"
    return result.stdout + result.stderr


def test_sigkill_of_one_rank_mid_training_ends_the_job(mpi):
    out = _fails_fast(mpi, "sigkill")
    assert "signal 9" in out, out


def test_exception_in_an_extension_aborts_every_rank(mpi):
    out = _fails_fast(mpi, "extension")
    assert "uncaught RuntimeError in the main thread of rank 1" in out, out
    assert "an extension of rank 1 failed" in out


@pytest.mark.slow
def test_exception_in_a_thread_aborts_every_rank(mpi):
    out = _fails_fast(mpi, "thread")
    assert "uncaught RuntimeError in thread 'helper' of rank 1" in out, out


@pytest.mark.slow
def test_exception_in_an_iterator_worker_aborts_every_rank(mpi):
    out = _fails_fast(mpi, "iterator_worker")
    assert "of rank 1" in out and "example 5 is unreadable on rank 1" in out, out


def test_collective_timeout_names_the_missing_rank_on_every_rank(mpi):
    result = mpi.run_ok("w_failure.py", "timeout", timeout=LIMIT_S)
    assert "rank 0 timeout: barrier: rank 0 waited 1.5 s for ranks [1]" in result.stdout, result.stdout
    assert "rank 1 timeout: barrier: rank 1 reached collective #1 after ranks [0] had given up" in result.stdout


def test_the_abort_hook_can_be_turned_off(monkeypatch):
    monkeypatch.setenv(chainermn.global_except_hook.ENVIRONMENT_VARIABLE, "0")
    assert not chainermn.global_except_hook.enabled_by_environment()
    before = sys.excepthook
    chainermn.global_except_hook.add_hook()
    assert sys.excepthook is not before
    chainermn.global_except_hook.remove_hook()
    assert sys.excepthook is before
