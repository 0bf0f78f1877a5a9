"""TextDataset: random access to the lines of one or more text files by line number."""
import threading

from kusari.dataset.dataset_mixin import DatasetMixin


def _per_file(value, n: int, name: str) -> list:
    if value is None or isinstance(value, str):
        return [value] * n
    value = list(value)
    if len(value) != n:
        raise ValueError(f"TextDataset: {name} has {len(value)} entries for {n} files")
    return value


class TextDataset(DatasetMixin):
    """Lines of text files, read on access; the offsets of all lines are indexed once up front.

    With one path an example is a line (``str``, newline included); with several paths it is the
    tuple of the ``i``-th line of every file, which must all have the same number of lines.

    Parameters
    ----------
    paths : str or list of str
        the text file(s).
    encoding, errors, newline
        as for :func:`open`; a list gives one value per file.
    filter_func : callable
        called with one line per file; lines where it returns False are
        skipped (their line numbers do not count).
    """

    _files = None

    def __init__(self, paths, encoding=None, errors=None, newline=None, filter_func=None):
        if isinstance(paths, str):
            paths = [paths]
        paths = list(paths)
        if not paths:
            raise ValueError("TextDataset: at least one text file must be given")
        n = len(paths)
        self._paths = paths
        self._open_args = list(zip(_per_file(encoding, n, "encoding"), _per_file(errors, n, "errors"),
                                   _per_file(newline, n, "newline")))
        self._open()
        starts = [[] for _ in paths]
        while True:
            positions = [f.tell() for f in self._files]
            lines = [f.readline() for f in self._files]
            if not all(lines):
                if any(lines):
                    counts = ", ".join(f"{p}: more" if line else f"{p}: ended"
                                       for p, line in zip(paths, lines))
                    raise ValueError(f"TextDataset: the files have different numbers of lines ({counts})")
                break
            if filter_func is None or filter_func(*lines):
                for k, position in enumerate(positions):
                    starts[k].append(position)
        self._starts = starts
        self._lock = threading.Lock()

    def _open(self):
        self._files = [open(path, "rt", encoding=enc, errors=err, newline=nl)
                       for path, (enc, err, nl) in zip(self._paths, self._open_args)]

    def close(self):
        """Close the files (reopened automatically after pickling)."""
        if self._files is not None:
            for f in self._files:
                f.close()
            self._files = None

    def __del__(self):
        self.close()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_files"] = state["_lock"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.Lock()
        self._open()

    def __len__(self):
        return len(self._starts[0])

    def get_example(self, idx):
        n = len(self)
        if not 0 <= idx < n:
            raise IndexError(f"TextDataset: index {idx} is out of range for length {n}")
        with self._lock:
            lines = []
            for f, starts in zip(self._files, self._starts):
                f.seek(starts[idx])
                lines.append(f.readline())
        return lines[0] if len(lines) == 1 else tuple(lines)
