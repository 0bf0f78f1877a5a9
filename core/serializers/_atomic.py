"""Atomic file writes: a temp file in the target's directory, fsync, then ``os.replace``."""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def open_for_write(file):
    """Yield a binary file object for ``file`` (a path or an open file object).

    For a path, data goes to a temporary file next to it which replaces the target only when the
    block finishes without error; on error the temporary file is removed and the target is left
    as it was. File objects are yielded as they are.
    """
    if hasattr(file, "write"):
        yield file
        return
    path = os.fspath(file)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.remove(tmp)
        raise
