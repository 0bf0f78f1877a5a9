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
    other too. On POSIX the holder removes the lock file before it lets go, so none is left beside
    the files it guards; a waiter that then gets the lock on the removed file sees that ``path`` is
    no longer that file and starts over (on Windows, where an open file cannot be removed, the
    lock file stays).

    Raises
    ------
    TimeoutError
        the lock was not obtained within ``timeout`` seconds (None waits forever).
    """
    deadline = None if timeout is None else time.monotonic() + timeout
    fd = _acquire(path, deadline, timeout, poll_interval)
    try:
        yield
    finally:
        if fcntl is not None:
            with contextlib.suppress(OSError):   # already gone, or a folder we may not write to
                os.unlink(path)
        _unlock(fd)
        os.close(fd)


def _acquire(path: str, deadline: float | None, timeout: float | None, poll_interval: float) -> int:
    """A descriptor of ``path`` holding its lock, ``path`` still naming that file."""
    while True:
        # 0o666 less the umask, like any new file: a group-writable root stays usable by the group
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
        try:
            while not _try_lock(fd):
                if deadline is not None and time.monotonic() >= deadline:
                    raise TimeoutError(
                        f"file_lock: could not lock {path} within {timeout} s: another process or "
                        "thread holds it")
                time.sleep(poll_interval)
            if fcntl is None or _names(path, fd):
                return fd
            _unlock(fd)   # its holder removed it while we waited: lock the file now at path
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)


def _names(path: str, fd: int) -> bool:
    """Whether ``path`` is the file open as ``fd``."""
    try:
        linked = os.stat(path)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (linked.st_dev, linked.st_ino) == (held.st_dev, held.st_ino)
