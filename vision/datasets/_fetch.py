"""What the dataset loaders share: an archive downloaded and extracted once into the dataset's folder,
list files read with errors that say what is missing, and fields parsed with errors that say where.

``data_dir='auto'`` keeps a dataset in ``<dataset root>/<name>`` (``KUSARI_DATASET_ROOT``, see
:mod:`kusari.dataset.download`): the archive is fetched there by kusari's downloader (file lock,
temporary file, checksum where one is known, atomic rename, ``KUSARI_DOWNLOAD_MIRROR`` first), then
extracted into a temporary folder beside it; only when the archive holds every expected entry are
those entries renamed into place. So an entry that exists is complete, and an interrupted extraction
leaves nothing behind but the temporary folder, which the next call removes.
"""
import gzip
import json
import os
import shutil
import tarfile
import tempfile
import urllib.parse
import zipfile
from typing import Callable

from kusari.dataset import cached_download, file_lock, get_dataset_directory
from kusari.vision.utils import extractall

_LOCK_TIMEOUT_S = 6 * 3600.0   # another process may be extracting COCO's 18 GB
_TEMP_PREFIX = ".extracting-"


def archive_opens(path: str) -> None:
    """Verify an archive whose checksum is not known: every member of a zip file matches its CRC, a
    gzip stream decompresses to its end and matches its CRC, and a tar archive lists its members.

    Raises ValueError naming the file and what is wrong (what :func:`kusari.dataset.cached_download`
    takes as a failed verification).
    """
    try:
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                bad = archive.testzip()
            if bad is not None:
                raise ValueError(f"{path}: the member {bad} of the zip archive fails its CRC check")
            return
        with open(path, "rb") as f:
            gzipped = f.read(2) == b"\x1f\x8b"
        if gzipped:
            with gzip.open(path, "rb") as f:
                while f.read(1 << 24):
                    pass
        with tarfile.open(path, "r:*") as archive:
            archive.getmembers()
    except (OSError, EOFError, zipfile.BadZipFile, tarfile.TarError) as e:
        raise ValueError(f"{path}: not a readable zip, tar or gzipped tar archive ({type(e).__name__}: {e})") from e


def _extension(url: str) -> str:
    name = os.path.basename(urllib.parse.urlparse(url).path)
    return ".tgz" if name.endswith(".tar.gz") else os.path.splitext(name)[1]


def fetch_archive(dataset_name: str, url: str, entries: dict, owner: str, *,
                  verify: Callable[[str], object] | None = None,
                  finish: Callable[[str], None] | None = None) -> str:
    """``<dataset root>/<dataset_name>``, holding ``entries`` of the archive at ``url``, downloaded and
    extracted the first time.

    Parameters
    ----------
    dataset_name : str
        The dataset's folder under the dataset root.
    url : str
        The archive's canonical URL; it is kept in the folder under its own file name.
    entries : dict
        ``{path in the archive: path in the folder}`` ('/'-separated), the files or folders to keep.
        When all exist, nothing is downloaded.
    owner : str
        The dataset class, named in errors.
    verify : callable, optional
        Verification of the downloaded archive, e.g. a :class:`kusari.dataset.Checksum`; by default
        :func:`archive_opens` (no checksum is published for most of ChainerCV's archives).
    finish : callable, optional
        ``finish(folder)`` runs on the extracted archive before its entries are checked and moved
        into place (to add files made from it, or unpack archives inside it).

    Returns
    -------
    str
        The dataset's folder.
    """
    directory = get_dataset_directory(dataset_name)
    targets = {source: os.path.join(directory, *target.split("/")) for source, target in entries.items()}
    if all(os.path.exists(target) for target in targets.values()):
        return directory
    with file_lock(os.path.join(directory, ".extract.lock"), timeout=_LOCK_TIMEOUT_S):
        if all(os.path.exists(target) for target in targets.values()):
            return directory           # another process extracted it meanwhile
        for name in os.listdir(directory):
            if name.startswith(_TEMP_PREFIX):   # left by an interrupted extraction
                shutil.rmtree(os.path.join(directory, name), ignore_errors=True)
        archive = cached_download(url, path=os.path.join(directory, os.path.basename(urllib.parse.urlparse(url).path)),
                                  verify=verify or archive_opens)
        with tempfile.TemporaryDirectory(prefix=_TEMP_PREFIX, dir=directory) as temp:
            extractall(archive, temp, _extension(url))
            problem = None
            if finish is not None:
                try:
                    finish(temp)
                except OSError as e:
                    problem = f"{type(e).__name__}: {e}"
            missing = [source for source in entries if not os.path.exists(os.path.join(temp, *source.split("/")))]
            if missing or problem:
                raise ValueError(
                    f"{owner}: the archive {archive} does not hold {', '.join(missing) or 'what it needs'}"
                    f"{f' ({problem})' if problem else ''}, so it is not the file {url} serves. Delete it and "
                    "try again, or put the right file in its place.")
            for source, target in targets.items():
                if not os.path.exists(target):
                    os.makedirs(os.path.dirname(target), exist_ok=True)
                    os.rename(os.path.join(temp, *source.split("/")), target)
    return directory


def fetch_file(dataset_name: str, url: str, *, verify: Callable[[str], object] | None = None) -> str:
    """The path of a verified copy of the single file at ``url`` in ``<dataset root>/<dataset_name>``."""
    directory = get_dataset_directory(dataset_name)
    return cached_download(url, path=os.path.join(directory, os.path.basename(urllib.parse.urlparse(url).path)),
                           verify=verify)


def read_lines(path: str, owner: str, what: str) -> list:
    """The lines of the text file ``path`` (``what`` it lists, for the error when it is missing)."""
    try:
        with open(path) as f:
            return f.read().splitlines()
    except FileNotFoundError:
        raise FileNotFoundError(f"{owner}: {path} ({what}) does not exist; check data_dir and split") from None


def read_json(path: str, owner: str, what: str):
    """The JSON document in ``path``; a missing file or one that is not JSON is an error naming
    ``owner`` and the file (with the line and column where the JSON breaks)."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except FileNotFoundError:
        raise FileNotFoundError(f"{owner}: {path} ({what}) does not exist; check data_dir and split") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise ValueError(f"{owner}: {path} ({what}) is not valid JSON ({e})") from None


def parse_number(text, kind: type, owner: str, where: str):
    """``text``, a field of a dataset file, as an int or a float (``kind``).

    An int may be written as an integral decimal (``'273.0'``); anything else that is not a number
    of that kind (``'12.5'`` for an int, ``'n/a'``, a missing field) is a ValueError naming
    ``owner`` (the dataset class) and ``where`` (the file and its line or element).
    """
    try:
        value = float(text)
    except (TypeError, ValueError):
        value = None
    if value is None or (kind is int and not value.is_integer()):
        raise ValueError(f"{owner}: {where} must be {'an integer' if kind is int else 'a number'}, "
                         f"got {text!r}")
    return int(value) if kind is int else value


def read_table(path: str, owner: str, what: str, kinds: tuple, header: int = 0) -> list:
    """The rows of the whitespace-separated text file ``path``, after ``header`` lines; empty
    lines are skipped.

    ``kinds`` gives the type of each leading field (int, float or str; more fields may follow and
    are dropped); a row with fewer fields, or a field that does not parse, is a ValueError naming
    ``owner``, the file, the line and the field.
    """
    rows = []
    for number, line in enumerate(read_lines(path, owner, what)[header:], header + 1):
        fields = line.split()
        if not fields:
            continue
        if len(fields) < len(kinds):
            raise ValueError(f"{owner}: {path}, line {number} has {len(fields)} fields, expected "
                             f"{len(kinds)} ({what}): {line!r}")
        rows.append([field if kind is str else
                     parse_number(field, kind, owner, f"{path}, line {number}, field {k + 1}")
                     for k, (kind, field) in enumerate(zip(kinds, fields))])
    return rows


def require_directory(path: str, owner: str, what: str) -> None:
    """Raise FileNotFoundError naming ``path`` (``what`` it should hold) when it is not a folder."""
    if not os.path.isdir(path):
        raise FileNotFoundError(f"{owner}: {path} ({what}) does not exist; check data_dir and split")
