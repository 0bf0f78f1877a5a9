"""Snapshot writers: how a snapshot file reaches the disk (atomically, in the calling thread)."""
import contextlib
import os
import tempfile


class SimpleWriter:
    """Writes ``target`` with ``savefun(path, target)`` to a temporary file in ``outdir``, flushes it
    to disk and renames it to ``filename``: a crash leaves the previous files intact and never a
    partial snapshot under a snapshot's name.

    Writers are called as ``writer(filename, outdir, target, savefun=...)``.
    """

    def __init__(self, savefun=None, **kwds):
        self._savefun = savefun
        self._kwds = kwds

    def __call__(self, filename, outdir, target, savefun=None):
        savefun = savefun or self._savefun
        if savefun is None:
            raise ValueError("SimpleWriter: no savefun given")
        os.makedirs(outdir, exist_ok=True)
        path = os.path.join(outdir, filename)
        fd, tmp = tempfile.mkstemp(prefix=".tmp." + os.path.basename(filename) + ".", dir=outdir)
        os.close(fd)
        try:
            savefun(tmp, target, **self._kwds)
            with open(tmp, "rb+") as f:
                os.fsync(f.fileno())
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.remove(tmp)
            raise
