"""Reading an NPZ file whole before anything is loaded: CRCs checked, object arrays refused, never unpickled."""
import io
import os
import zipfile
import zlib

from numpy.lib import format as npy_format

from kusari.serializers import _chainer_none


class NpzArrays(dict):
    """Key -> array of one NPZ file; ``filename`` names the file in error messages."""

    def __init__(self, filename: str):
        super().__init__()
        self.filename = filename


def read_npz(file, prefix: str = "") -> NpzArrays:
    """Read every ``.npy`` member of ``file`` whose key starts with ``prefix``.

    Parameters
    ----------
    file : str, path-like or binary file object
        The NPZ (zip) file.
    prefix : str
        Only keys (member names without ``.npy``) starting with it are read.

    Returns
    -------
    NpzArrays
        Key -> array; Chainer's None members become 0-d object arrays holding None.

    Raises
    ------
    OSError
        The file is not a zip, or a member is corrupt (bad CRC, truncated) or not a .npy array.
    ValueError
        A member is an object array other than Chainer's None (unpickling it could run code).
    """
    name = _name_of(file)
    try:
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, EOFError) as e:
        raise OSError(f"load_npz: {name} is not an NPZ (zip) file ({e})") from e
    arrays = NpzArrays(name)
    with archive:
        for info in archive.infolist():
            key = info.filename[:-len(".npy")]
            if info.filename.endswith(".npy") and key.startswith(prefix):
                arrays[key] = _read_member(archive, info, name, key)
    return arrays


def _name_of(file) -> str:
    if isinstance(file, (str, bytes, os.PathLike)):
        return os.fsdecode(file)
    return str(getattr(file, "name", "<file object>"))


def _read_member(archive, info, name, key):
    try:
        raw = archive.read(info)  # a whole read checks the member's CRC-32
    except (zipfile.BadZipFile, zlib.error, EOFError) as e:
        raise OSError(f"load_npz: {name}: member {key!r} is corrupt ({e})") from e
    stream = io.BytesIO(raw)
    try:
        version = npy_format.read_magic(stream)
        read_header = npy_format.read_array_header_1_0 if version == (1, 0) else npy_format.read_array_header_2_0
        shape, _, dtype = read_header(stream)
        if not dtype.hasobject:
            stream.seek(0)
            return npy_format.read_array(stream, allow_pickle=False)
    except ValueError as e:
        raise OSError(f"load_npz: {name}: member {key!r} is not a readable .npy array ({e})") from e
    if shape == () and _chainer_none.is_none_payload(raw[stream.tell():]):
        return _chainer_none.none_array()
    raise ValueError(f"load_npz: {name}: {key!r} is an object array (dtype {dtype}, shape {shape}) other "
                     f"than Chainer's None; it is refused because unpickling an object array can run "
                     f"arbitrary code")
