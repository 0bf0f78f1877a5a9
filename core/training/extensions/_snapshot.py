"""snapshot / snapshot_object: save the trainer (or any object) periodically; resume from the newest valid file."""
import fnmatch
import os
import string

from kusari import serializers
from kusari.serializers._npz_read import read_npz
from kusari.training import extension
from kusari.training.extensions.snapshot_writers import SimpleWriter

PRIORITY_SNAPSHOT = -100
"""Snapshots run after every usual extension, so they see the final state of an iteration."""


class _CorruptSnapshot(Exception):
    """A snapshot file that cannot be read (truncated, bad checksum)."""


def _load_npz_verified(path, target):
    """Read the whole NPZ first (zip CRCs checked, object arrays refused), then load all or nothing.

    A file that cannot be read is a _CorruptSnapshot; a readable one that does not fit ``target``
    raises as load_npz does. Either way ``target`` is left as it was.
    """
    try:
        data = read_npz(path)
    except (OSError, ValueError) as e:
        raise _CorruptSnapshot(f"{path}: {e}") from e
    serializers.NpzDeserializer(data).load(target)


def _glob_pattern(template: str) -> str:
    """'snapshot_iter_{.updater.iteration}' -> 'snapshot_iter_*' (each replacement field a wildcard)."""
    parts = []
    for literal, field, _, _ in string.Formatter().parse(template):
        parts.append(literal.replace("[", "[[]").replace("*", "[*]").replace("?", "[?]"))
        if field is not None:
            parts.append("*")
    return "".join(parts)


class _Snapshot(extension.Extension):
    """The extension made by :func:`snapshot` and :func:`snapshot_object`."""

    trigger = 1, "epoch"
    priority = PRIORITY_SNAPSHOT

    def __init__(self, target=None, condition=None, writer=None, filename="snapshot_iter_{.updater.iteration}",
                 snapshot_on_error=False, n_retains=-1, autoload=False, savefun=None, loadfun=None):
        if not (isinstance(filename, str) or callable(filename)):
            raise TypeError(f"snapshot: filename must be a format string or a callable, got {filename!r}")
        if (autoload or n_retains > 0) and not isinstance(filename, str):
            raise ValueError("snapshot: autoload and n_retains need filename to be a format string "
                             "(to find earlier snapshots)")
        if n_retains == 0:
            raise ValueError("snapshot: n_retains must be positive, or negative to keep every file")
        self._target = target
        self.filename = filename
        self.condition = condition or (lambda: True)
        self.writer = writer or SimpleWriter()
        self._savefun = savefun or serializers.save_npz
        self._loadfun = loadfun or (_load_npz_verified if savefun is None else serializers.load_npz)
        self._snapshot_on_error = snapshot_on_error
        self.n_retains = n_retains
        self.autoload = autoload

    def _existing(self, outdir):
        """Snapshot files in ``outdir`` matching the filename template, newest first."""
        if not os.path.isdir(outdir):
            return []
        pattern = _glob_pattern(self.filename)
        paths = [os.path.join(outdir, f) for f in os.listdir(outdir) if fnmatch.fnmatchcase(f, pattern)]
        paths = [p for p in paths if os.path.isfile(p)]
        return sorted(paths, key=lambda p: (os.stat(p).st_mtime_ns, p), reverse=True)

    def initialize(self, trainer):
        """With ``autoload``, load the newest readable snapshot in ``trainer.out`` (skipping corrupt ones).

        Returns the path loaded, or None.
        """
        if not self.autoload:
            return None
        target = trainer if self._target is None else self._target
        for path in self._existing(trainer.out):
            try:
                self._loadfun(path, target)
            except _CorruptSnapshot:
                continue
            return path
        return None

    def on_error(self, trainer, exc, tb):
        if self._snapshot_on_error:
            self._make_snapshot(trainer)

    def __call__(self, trainer):
        if self.condition():
            self._make_snapshot(trainer)

    def _make_snapshot(self, trainer):
        target = trainer if self._target is None else self._target
        filename = self.filename.format(trainer) if isinstance(self.filename, str) else self.filename(trainer)
        self.writer(filename, trainer.out, target, savefun=self._savefun)
        if self.n_retains > 0:
            for old in self._existing(trainer.out)[self.n_retains:]:
                os.remove(old)


def snapshot(savefun=None, filename="snapshot_iter_{.updater.iteration}", *, target=None, condition=None,
             writer=None, snapshot_on_error=False, n_retains=-1, autoload=False, loadfun=None):
    """An extension that saves the trainer's whole state (or ``target``) to ``trainer.out``.

    Runs once per epoch by default, after all other extensions (priority -100). Everything the
    trainer serializes goes in: model, optimizer state, iterator position and order, triggers and
    extension state, NumPy's global random state, elapsed time, so a resumed run continues
    exactly where the snapshot was taken.

    Parameters
    ----------
    savefun
        ``savefun(path, obj)``; :func:`kusari.serializers.save_npz` by default.
    filename : str or callable
        a format string applied to the trainer
        (``'snapshot_iter_{.updater.iteration}'``) or ``filename(trainer) -> str``.
    target
        the object to save instead of the trainer.
    condition : callable
        ``condition() -> bool``; no snapshot when False.
    writer
        ``writer(filename, outdir, target, savefun=...)``; an atomic
        :class:`~kusari.training.extensions.snapshot_writers.SimpleWriter` by default.
    snapshot_on_error : bool
        also save when the training loop raises.
    n_retains : int
        keep only the newest ``n_retains`` matching files (all when negative).
    autoload : bool
        on ``trainer.run``, load the newest snapshot in ``out`` that reads back
        intact (a corrupt or truncated one is skipped) before any other extension initializes.
    loadfun
        ``loadfun(path, obj)`` for autoload; a verifying NPZ loader by default.
    """
    return _Snapshot(target=target, condition=condition, writer=writer, filename=filename,
                     snapshot_on_error=snapshot_on_error, n_retains=n_retains, autoload=autoload,
                     savefun=savefun, loadfun=loadfun)


def snapshot_object(target, filename, savefun=None, *, condition=None, writer=None,
                    snapshot_on_error=False, n_retains=-1, autoload=False, loadfun=None):
    """An extension that saves ``target`` (e.g. the model) to ``trainer.out/filename``.

    ``filename`` is formatted with the trainer, e.g. ``'model_epoch_{.updater.epoch}'``; the other
    arguments are those of :func:`snapshot`.
    """
    return snapshot(savefun, filename, target=target, condition=condition, writer=writer,
                    snapshot_on_error=snapshot_on_error, n_retains=n_retains, autoload=autoload,
                    loadfun=loadfun)
