"""Snapshot writers: how a snapshot file reaches the disk (atomically, in the calling thread)."""
import os

from kusari.utils.atomic_write import atomic_path


class SimpleWriter:
    """Writes ``target`` with ``savefun(path, target)`` through :func:`kusari.utils.atomic_write.atomic_path`:
    a crash leaves the previous files intact and never a partial snapshot under a snapshot's name,
    and the file gets the umask's mode.

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
        with atomic_path(os.path.join(outdir, filename)) as tmp:
            savefun(tmp, target, **self._kwds)
