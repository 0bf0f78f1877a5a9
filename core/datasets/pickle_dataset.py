"""PickleDataset: a file of consecutive pickles with random access by example index, and its writer."""
import os
import pickle
import threading

from kusari.dataset.dataset_mixin import DatasetMixin


class PickleDatasetWriter:
    """Appends examples to a file object as consecutive pickles (read back by PickleDataset).

    Parameters
    ----------
    writer
        binary file object with ``write`` (and ``close``).
    protocol : int
        pickle protocol.
    """

    def __init__(self, writer, protocol=pickle.HIGHEST_PROTOCOL):
        self._writer = writer
        self._protocol = protocol

    def write(self, x):
        """Append one example."""
        pickle.dump(x, self._writer, protocol=self._protocol)

    def flush(self):
        if hasattr(self._writer, "flush"):
            self._writer.flush()

    def close(self):
        self._writer.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()


class PickleDataset(DatasetMixin):
    """Examples stored as consecutive pickles in a seekable binary file, loaded on access.

    The constructor scans the file once to record where each pickle starts. Pickles run code when
    loaded: only open files you trust.

    Parameters
    ----------
    reader
        seekable binary file object (see :func:`open_pickle_dataset`).
    """

    def __init__(self, reader):
        if not reader.seekable():
            raise ValueError("PickleDataset: reader must support random access (seekable() is False)")
        self._reader = reader
        self._positions = []
        reader.seek(0)
        while True:
            position = reader.tell()
            try:
                pickle.load(reader)
            except EOFError:
                break
            self._positions.append(position)
        self._lock = threading.RLock()

    def close(self):
        """Close the reader; the dataset is unusable afterwards."""
        with self._lock:
            self._reader.close()

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.close()

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_lock"] = None
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __len__(self):
        return len(self._positions)

    def get_example(self, index):
        with self._lock:
            self._reader.seek(self._positions[index])
            return pickle.load(self._reader)


class _FileReader:
    """A read-only binary file that reopens itself after pickling or in a forked child process."""

    def __init__(self, path):
        self._path = path
        self._file = open(path, "rb")
        self._pid = os.getpid()

    def _get(self):
        if self._file is None or self._pid != os.getpid():
            self._file = open(self._path, "rb")
            self._pid = os.getpid()
        return self._file

    def __getstate__(self):
        return {"_path": self._path, "_file": None, "_pid": None}

    def seekable(self):
        return True

    def seek(self, offset, whence=os.SEEK_SET):
        return self._get().seek(offset, whence)

    def tell(self):
        return self._get().tell()

    def read(self, size=-1):
        return self._get().read(size)

    def readline(self, size=-1):
        return self._get().readline(size)

    def readinto(self, buffer):
        return self._get().readinto(buffer)

    def close(self):
        if self._file is not None:
            self._file.close()


def open_pickle_dataset(path):
    """Open the PickleDataset stored at ``path`` (close it, or use ``with``)."""
    return PickleDataset(_FileReader(path))


def open_pickle_dataset_writer(path, protocol=pickle.HIGHEST_PROTOCOL):
    """Open a PickleDatasetWriter that creates (truncates) ``path`` (close it, or use ``with``)."""
    return PickleDatasetWriter(open(path, "wb"), protocol=protocol)
