"""Atomic file writes: a temporary file next to the target, fsync, then ``os.replace``.

A reader of the target sees the previous file or the new one, never a part, even when the writer
is killed. The temporary file ``.tmp.<random>.<target name>`` lives in the target's folder (same
file system, so the rename is atomic; the leading dot and the name show a write in progress) and
ends with the target's name, so writers that pick a format or add a suffix by extension
(``numpy.savez``, matplotlib) behave as for the target. It is removed when the write fails.

File mode: the temporary file is created with ``os.open(..., O_CREAT | O_EXCL, 0o666)``, as
``open(path, 'w')`` creates a file, so the kernel applies the umask (0o644 under umask 022) and
any default ACL of the folder. Reading the umask instead would need ``os.umask`` set-and-restore,
which changes it for every thread of the process for a moment. A replaced file's old mode is not
kept: the new file gets the mode a newly created one would.
"""
import contextlib
import os
import secrets
from collections.abc import Iterator
from typing import BinaryIO


def _create_temp(path: str) -> str:
    directory, name = os.path.split(os.path.abspath(path))
    while True:
        tmp = os.path.join(directory, f".tmp.{secrets.token_hex(4)}.{name}")
        try:
            os.close(os.open(tmp, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o666))
        except FileExistsError:
            continue
        return tmp


def _fsync(path: str) -> None:
    # POSIX syncs through any descriptor; Windows only through one opened for writing
    fd = os.open(path, os.O_RDWR if os.name == "nt" else os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextlib.contextmanager
def atomic_path(path) -> Iterator[str]:
    """Yield a temporary path that replaces ``path`` when the block finishes without error.

    The temporary file exists (empty, with the umask's mode) when the block starts; write it by
    name (``open(tmp, 'wb')``, ``shutil.copyfile(src, tmp)``, a library's ``save(tmp)``). On
    success it is flushed to disk and renamed to ``path``; on any error (including
    KeyboardInterrupt) it is removed, ``path`` is left as it was, and the error propagates.

    Parameters
    ----------
    path : str or os.PathLike
        The file to write; its folder must exist.

    Returns
    -------
    Iterator[str]
        The temporary path, in ``path``'s folder.
    """
    tmp = _create_temp(os.fspath(path))
    try:
        yield tmp
        _fsync(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        raise


@contextlib.contextmanager
def open_for_write(file) -> Iterator[BinaryIO]:
    """Yield a binary file object whose content replaces ``file`` atomically (see :func:`atomic_path`).

    Parameters
    ----------
    file : str, os.PathLike or file object
        A path (written through a temporary file, renamed into place when the block finishes
        without error), or an open binary file object (yielded as it is: the caller owns it).

    Returns
    -------
    Iterator[BinaryIO]
        The file object to write.
    """
    if hasattr(file, "write"):
        yield file
        return
    with atomic_path(file) as tmp, open(tmp, "wb") as f:
        yield f
