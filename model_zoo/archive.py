"""One ``.npz`` holding a folder's files, so that an object saved as a folder is a single zoo file.

An RL agent saves itself as a folder (PFRL's ``agent.save(dirname)`` writes ``model.npz``,
``target_model.npz``, ``optimizer.npz``...), while a zoo entry names one file with one checksum.
:func:`pack_directory` stores each file's bytes as a ``uint8`` array keyed by its path relative to
the folder (``/``-separated); :func:`unpack_directory` writes them back. The inner files stay
byte-identical, and ``numpy.load`` of the pack lists what it holds.
"""
import os

import numpy

from kusari.utils.atomic_write import atomic_path


def pack_directory(directory: str, path: str) -> None:
    """Write every file under ``directory`` (recursively) into the one NPZ file ``path``.

    Parameters
    ----------
    directory : str
        An existing folder; empty subfolders are not kept.
    path : str
        The ``.npz`` to write (atomically; its folder must exist).
    """
    if not os.path.isdir(directory):
        raise NotADirectoryError(f"pack_directory: {directory!r} is not a folder")
    files = {}
    for root, _, names in os.walk(directory):
        for name in names:
            full = os.path.join(root, name)
            key = os.path.relpath(full, directory).replace(os.sep, "/")
            with open(full, "rb") as f:
                files[key] = numpy.frombuffer(f.read(), dtype=numpy.uint8)
    if not files:
        raise ValueError(f"pack_directory: {directory!r} holds no files")
    with atomic_path(path) as tmp, open(tmp, "wb") as f:
        numpy.savez(f, **files)


def unpack_directory(path: str, directory: str) -> list[str]:
    """Write the files packed in ``path`` by :func:`pack_directory` under ``directory``.

    Parameters
    ----------
    path : str
        A pack written by :func:`pack_directory`.
    directory : str
        Where to write them (created if needed).

    Returns
    -------
    list of str
        The relative paths written, sorted.
    """
    root = os.path.abspath(directory)
    with numpy.load(path, allow_pickle=False) as packed:
        keys = sorted(packed.files)
        for key in keys:
            target = os.path.abspath(os.path.join(root, *key.split("/")))
            if os.path.commonpath([root, target]) != root:
                raise ValueError(f"unpack_directory: {path!r} holds {key!r}, which leads outside {directory!r}")
            array = packed[key]
            if array.dtype != numpy.uint8 or array.ndim != 1:
                raise ValueError(f"unpack_directory: {path!r} is not a packed folder ({key!r} has "
                                 f"dtype {array.dtype}, shape {array.shape}; expected uint8 bytes)")
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as f:
                f.write(array.tobytes())
    return keys
