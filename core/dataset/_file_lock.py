"""An inter-process lock held on a lock file (``flock`` on POSIX, ``msvcrt`` on Windows), with a timeout."""
import contextlib
import os
import time

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None
    import msvcrt


def _try_lock(fd: int) -> bool:
    try:
        if fcntl is not None:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        else:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
    except OSError:
        return False
    return True


def _unlock(fd: int) -> None:
    if fcntl is not None:
        fcntl.flock(fd, fcntl.LOCK_UN)
    else:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


@contextlib.contextmanager
def file_lock(path: str, timeout: float | None = None, poll_interval: float = 0.02):
    """Hold an exclusive lock on ``path`` (created if missing) within the context.

    The lock belongs to the open file, so the operating system releases it when the holder dies:
    a killed process never leaves a stale lock behind. Two threads of one process exclude each
    other too. The lock file itself is left in place (removing it would race with waiters).

    Raises
    ------
    TimeoutError
        the lock was not obtained within ``timeout`` seconds (None waits forever).
    """
    # 0o666 less the umask, like any new file: a group-writable root stays usable by the group
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        deadline = None if timeout is None else time.monotonic() + timeout
        while not _try_lock(fd):
            if deadline is not None and time.monotonic() >= deadline:
                raise TimeoutError(
                    f"file_lock: could not lock {path} within {timeout} s: another process or "
                    "thread holds it")
            time.sleep(poll_interval)
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
