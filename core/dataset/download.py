"""Dataset cache folders and verified downloads: file lock, temp file, checksum, atomic rename, mirrors.

Layout: ``get_dataset_root()`` (``KUSARI_DATASET_ROOT``, default ``KUSARI_HOME/dataset`` with
``KUSARI_HOME`` defaulting to ``~/.kusari``) holds one folder per dataset. ``KUSARI_DOWNLOAD_MIRROR``
names a local folder or a URL prefix consulted before the canonical URL; a file is looked up there
under its path relative to the dataset root (``mnist/train-images-idx3-ubyte.gz``), then in its
dataset's mirror folder where the loader names one (MoleculeNet's files, cached under
``pfnet/chainer/molnet``, as ``moleculenet/delaney-processed.csv``), then under its bare file name. So
one mirror serves every dataset, each file at its root or in its dataset's folder.
"""
import gzip
import hashlib
import os
import pickle
import shutil
import sys
import time
import urllib.parse
import warnings
import zipfile
import zlib
from typing import Callable

from kusari.dataset._file_lock import file_lock
from kusari.utils.atomic_write import atomic_path

_dataset_root: str | None = None

# Waiting this long for another process's download of the same file is normal for large files.
_LOCK_TIMEOUT_S = 3600.0
_BACKOFF_S = 0.5
_PROGRESS_MIN_BYTES = 1 << 20
_CHUNK = 1 << 16
_USER_AGENT = "kusari-dataset-downloader"


class DownloadError(OSError):
    """No source (cache, mirror, URL) could provide a verified copy of a file."""


class ChecksumError(ValueError):
    """A file's content does not match its expected checksum."""


def get_dataset_root() -> str:
    """The folder that holds dataset caches (``set_dataset_root`` wins over ``KUSARI_DATASET_ROOT``)."""
    if _dataset_root is not None:
        return _dataset_root
    root = os.environ.get("KUSARI_DATASET_ROOT")
    if root:
        return os.path.expanduser(root)
    home = os.environ.get("KUSARI_HOME") or os.path.join("~", ".kusari")
    return os.path.join(os.path.expanduser(home), "dataset")


def set_dataset_root(path) -> None:
    """Use ``path`` as the dataset root from now on (None goes back to the environment default)."""
    global _dataset_root
    _dataset_root = None if path is None else os.fspath(path)


def get_dataset_directory(dataset_name: str, create_directory: bool = True) -> str:
    """The folder of ``dataset_name`` under the dataset root (``/`` in the name nests folders)."""
    path = os.path.join(get_dataset_root(), *dataset_name.split("/"))
    if create_directory:
        os.makedirs(path, exist_ok=True)
    return path


class Checksum:
    """A verifier: the file's content (gunzipped first if ``decompress='gzip'``) hashes to ``hexdigest``.

    Instances are callables ``verify(path)`` for :func:`cached_download`; a mismatch raises
    :class:`ChecksumError` naming the file, the algorithm and both digests.

    Parameters
    ----------
    hexdigest
        the expected digest, hexadecimal.
    algorithm
        any name ``hashlib.new`` accepts (``'sha256'``, ``'md5'``, ...).
    decompress
        None (hash the file's bytes) or ``'gzip'`` (hash the decompressed bytes, so a
        re-compressed copy of the same content passes).
    """

    def __init__(self, hexdigest: str, algorithm: str = "sha256", decompress: str | None = None):
        try:
            digest_size = hashlib.new(algorithm).digest_size
        except ValueError:
            raise ValueError(f"Checksum: unknown hash algorithm {algorithm!r}") from None
        if decompress not in (None, "gzip"):
            raise ValueError(f"Checksum: decompress must be None or 'gzip', got {decompress!r}")
        hexdigest = hexdigest.lower()
        if len(hexdigest) != 2 * digest_size or any(c not in "0123456789abcdef" for c in hexdigest):
            raise ValueError(
                f"Checksum: {hexdigest!r} is not a {algorithm} hex digest "
                f"({2 * digest_size} hexadecimal characters)")
        self.hexdigest = hexdigest
        self.algorithm = algorithm
        self.decompress = decompress

    def compute(self, path: str) -> str:
        """The digest of ``path``'s (decompressed) content."""
        h = hashlib.new(self.algorithm)
        with (gzip.open if self.decompress else open)(path, "rb") as f:
            while chunk := f.read(_CHUNK * 16):
                h.update(chunk)
        return h.hexdigest()

    def __call__(self, path: str) -> None:
        try:
            actual = self.compute(path)
        except (OSError, zlib.error, EOFError) as e:
            raise ChecksumError(f"{path}: cannot be read as {self._what()} ({e})") from e
        if actual != self.hexdigest:
            raise ChecksumError(
                f"{path}: {self.algorithm} of {self._what()} is {actual}, expected {self.hexdigest}")

    def _what(self) -> str:
        return "the gunzipped content" if self.decompress else "the file"

    def __repr__(self):
        extra = f", decompress={self.decompress!r}" if self.decompress else ""
        return f"Checksum({self.hexdigest!r}, algorithm={self.algorithm!r}{extra})"


def _problem(verify, path: str) -> str | None:
    """None when ``path`` passes ``verify``, else why it does not."""
    if verify is None:
        return None
    try:
        ok = verify(path)
    except ValueError as e:
        return str(e)
    return f"{path}: failed verification by {verify!r}" if ok is False else None


class _Progress:
    """Byte counter shown as a tqdm bar (or a plain text line) for files over 1 MiB or of unknown size."""

    def __init__(self, total: int | None, label: str):
        self._bar = None
        self._plain = None
        self._done = 0
        self._shown_at = 0.0
        if total is not None and total <= _PROGRESS_MIN_BYTES:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            self._plain = (total, label)
            return
        self._bar = tqdm(total=total, desc=label, unit="B", unit_scale=True, unit_divisor=1024,
                         file=sys.stderr, leave=False)

    def update(self, n: int) -> None:
        self._done += n
        if self._bar is not None:
            self._bar.update(n)
        elif self._plain is not None and time.monotonic() - self._shown_at >= 1.0:
            self._shown_at = time.monotonic()
            self._print_plain("\r")

    def _print_plain(self, end: str) -> None:
        total, label = self._plain
        of = f" / {total / 2 ** 20:.1f}" if total else ""
        print(f"{label}: {self._done / 2 ** 20:.1f}{of} MiB", end=end, file=sys.stderr, flush=True)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.close()
        elif self._plain is not None:
            self._print_plain("\n")


class _Truncated(OSError):
    pass


def _is_transient(error: BaseException) -> bool:
    """Whether retrying may help: timeouts, dropped connections, truncated bodies, 5xx/429/408."""
    import http.client
    import urllib.error
    if isinstance(error, urllib.error.HTTPError):
        return error.code >= 500 or error.code in (408, 429)
    if isinstance(error, urllib.error.URLError):
        error = error.reason if isinstance(error.reason, BaseException) else None
    return isinstance(error, (TimeoutError, ConnectionResetError, ConnectionAbortedError,
                              _Truncated, http.client.IncompleteRead))


def _download_once(url: str, tmp: str, label: str, timeout: float) -> None:
    import urllib.request
    request = urllib.request.Request(url, headers={"User-Agent": _USER_AGENT})
    with urllib.request.urlopen(request, timeout=timeout) as response, open(tmp, "wb") as out:
        length = response.headers.get("Content-Length")
        total = int(length) if length and length.isdigit() else None
        print(f"Downloading {url}", file=sys.stderr)
        progress = _Progress(total, label)
        received = 0
        try:
            while chunk := response.read(_CHUNK):
                out.write(chunk)
                received += len(chunk)
                progress.update(len(chunk))
        finally:
            progress.close()
    if total is not None and received != total:
        raise _Truncated(f"received {received} of {total} bytes")


def _download(url: str, tmp: str, label: str, timeout: float, retries: int) -> None:
    """Write ``url``'s body to ``tmp`` (each attempt starts it afresh)."""
    import http.client
    attempt = 0
    while True:
        try:
            return _download_once(url, tmp, label, timeout)
        except (OSError, http.client.HTTPException) as e:
            if attempt >= retries or not _is_transient(e):
                raise
            delay = _BACKOFF_S * 2 ** attempt
            print(f"cached_download: {url} failed ({e}); retrying in {delay:g} s", file=sys.stderr)
            time.sleep(delay)
            attempt += 1


class _Rejected(Exception):
    """A source's copy failed verification."""


def _mirror_names(path: str, mirror_folder: str | None = None) -> list[str]:
    """Names (``/``-separated) to look ``path`` up by in a mirror: relative to the root, in
    ``mirror_folder``, then bare."""
    names = []
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(get_dataset_root()))
    if rel != os.curdir and not rel.startswith(os.pardir):
        names.append(rel.replace(os.sep, "/"))
    base = os.path.basename(path)
    for name in ([mirror_folder.strip("/") + "/" + base] if mirror_folder else []) + [base]:
        if name not in names:
            names.append(name)
    return names


def _sources(url: str, path: str, mirror_folder: str | None) -> list[tuple[str, str]]:
    """(kind, location) pairs to try in order: mirror entries, then the canonical URL."""
    mirror = os.environ.get("KUSARI_DOWNLOAD_MIRROR", "")
    sources = []
    if mirror:
        for name in _mirror_names(path, mirror_folder):
            if "://" in mirror:
                sources.append(("url", mirror.rstrip("/") + "/" + urllib.parse.quote(name)))
            else:
                sources.append(("file", os.path.join(os.path.expanduser(mirror), *name.split("/"))))
    sources.append(("url", url))
    return sources


def _default_path(url: str) -> str:
    directory = get_dataset_directory("_dl_cache/" + hashlib.md5(url.encode("utf-8")).hexdigest())
    name = os.path.basename(urllib.parse.urlparse(url).path) or "download"
    return os.path.join(directory, name)


def cached_download(url: str, sha256: str | None = None, *, path: str | None = None,
                    verify: Callable[[str], object] | None = None, retries: int = 3,
                    timeout: float = 60.0, mirror_folder: str | None = None) -> str:
    """Return the path of a verified local copy of ``url``, downloading it only when needed.

    Under a lock on ``path + '.lock'`` (so concurrent processes download once), an existing copy is
    verified; a corrupt or truncated one is reported and replaced. Otherwise each source is tried in
    turn (``KUSARI_DOWNLOAD_MIRROR`` entries, then ``url``): the bytes go to a temp file in the
    target folder, are verified, and are renamed into place atomically, so ``path`` never holds a
    partial file. Transient network errors are retried with exponential backoff.

    Parameters
    ----------
    url
        the canonical URL.
    sha256
        expected SHA-256 of the file (shorthand for ``verify=Checksum(sha256)``).
    path
        where to keep the file; default ``<root>/_dl_cache/<md5 of url>/<file name>``.
    verify
        callable ``verify(path)`` that raises ValueError (or returns False) for a bad file,
        e.g. a :class:`Checksum`; give ``sha256`` or ``verify``, not both.
    retries
        extra attempts per URL after a transient failure.
    timeout
        socket timeout in seconds.
    mirror_folder
        the dataset's folder in a mirror (``'moleculenet'``), consulted after the path relative to
        the dataset root and before the bare file name.

    Returns
    -------
    str
        ``path``.

    Raises
    ------
    DownloadError
        no source gave a verified file; the message names the URL, what each source
        answered, and the exact path where a hand-downloaded copy is picked up.
    """
    if sha256 is not None and verify is not None:
        raise ValueError("cached_download: give sha256 or verify, not both")
    if retries < 0:
        raise ValueError(f"cached_download: retries must be >= 0, got {retries}")
    verify = Checksum(sha256) if sha256 is not None else verify
    path = os.path.abspath(os.fspath(path)) if path is not None else _default_path(url)
    directory, name = os.path.split(path)
    os.makedirs(directory, exist_ok=True)
    with file_lock(path + ".lock", timeout=_LOCK_TIMEOUT_S):
        if os.path.exists(path):
            problem = _problem(verify, path)
            if problem is None:
                return path
            warnings.warn(f"cached_download: the cached copy is corrupt ({problem}); fetching it again",
                          stacklevel=2)
            os.remove(path)
        # the network modules (http.client loads ssl) load only when a file is fetched, so that
        # `import kusari` stays without them
        import http.client
        failures = []
        for kind, location in _sources(url, path, mirror_folder):
            if kind == "file" and not os.path.isfile(location):
                failures.append(f"mirror {location}: not found")
                continue
            try:
                with atomic_path(path) as tmp:
                    if kind == "file":
                        shutil.copyfile(location, tmp)
                    else:
                        _download(location, tmp, name, timeout, retries)
                    problem = _problem(verify, tmp)
                    if problem is not None:
                        raise _Rejected(problem.replace(tmp, "the downloaded copy"))
            except _Rejected as e:
                failures.append(f"{location}: {e}")
                continue
            except (OSError, http.client.HTTPException, ValueError) as e:
                failures.append(f"{location}: {type(e).__name__}: {e}")
                continue
            return path
    tried = "\n".join("  - " + f for f in failures)
    names = " or ".join(_mirror_names(path, mirror_folder))
    raise DownloadError(
        f"cached_download: could not obtain a verified copy of {url}\n{tried}\n"
        f"Download it by hand and place it at:\n  {path}\n"
        f"or set KUSARI_DOWNLOAD_MIRROR to a folder or URL prefix that holds it as {names}.")


class CacheError(OSError):
    """A cached file could not be read and could not be rebuilt."""


# what loaders raise on a truncated or garbled file: numpy.load (BadZipFile, EOFError, ValueError),
# gzip (zlib.error, EOFError), text decoding (UnicodeDecodeError is a ValueError), pickle
_UNREADABLE = (OSError, EOFError, ValueError, KeyError, zipfile.BadZipFile, zlib.error,
               pickle.UnpicklingError)


def _describe(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}"


def cache_or_load_file(path: str, creator: Callable[[str], object], loader: Callable[[str], object]):
    """Load ``path`` with ``loader`` if it exists and is readable; else (re)build it with ``creator``.

    ``creator(temp_path)`` writes the file at a temporary path in the same folder (whose name ends
    with ``path``'s file name) and returns the content; the file is then renamed to ``path``
    atomically, so a crash never leaves a partial cache. A cache that ``loader`` cannot read
    (truncated or garbled: it raises OSError, EOFError, ValueError, KeyError, BadZipFile,
    zlib.error or UnpicklingError) is deleted with a warning and rebuilt. A lock on
    ``path + '.lock'`` makes concurrent callers build it once (the others wait, then load it).

    Parameters
    ----------
    path : str or os.PathLike
        The cached file.
    creator : callable
        ``creator(temp_path) -> content``; must write a non-empty file at ``temp_path``.
    loader : callable
        ``loader(path) -> content``.

    Returns
    -------
    object
        What ``loader`` or ``creator`` returned.

    Raises
    ------
    CacheError
        The cache was unreadable and could not be deleted or rebuilt; the message names the file,
        why, and what to delete by hand.
    """
    path = os.fspath(path)
    damage = None
    if os.path.exists(path):
        try:
            return loader(path)
        except _UNREADABLE as e:
            damage = _describe(e)
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with file_lock(path + ".lock", timeout=_LOCK_TIMEOUT_S):
            if os.path.exists(path):
                try:
                    return loader(path)  # built, or repaired, by another process meanwhile
                except _UNREADABLE as e:
                    damage = _describe(e)
                warnings.warn(f"cache_or_load_file: {path} is unreadable ({damage}); deleting and "
                              "rebuilding it", stacklevel=2)
                os.remove(path)
            with atomic_path(path) as tmp:
                content = creator(tmp)
                if os.path.getsize(tmp) == 0:
                    raise ValueError(f"cache_or_load_file: the creator wrote nothing to {tmp}")
            return content
    except Exception as e:
        if damage is None:
            raise
        if os.path.exists(path):
            advice = (f"Delete {path} by hand (it is rebuilt from its source files on the next load), "
                      "or point KUSARI_DATASET_ROOT at a folder you can write to.")
        else:
            advice = (f"{path} has been deleted (nothing else needs deleting); it is rebuilt on the "
                      "next load once that cause is fixed.")
        raise CacheError(f"cache_or_load_file: the cached file {path} is unreadable ({damage}) and "
                         f"could not be rebuilt: {_describe(e)}\n{advice}") from e
