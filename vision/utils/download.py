"""Downloads for kusari.vision: ChainerCV's ``cached_download``, ``download_model`` and ``extractall`` on
kusari's verified, atomic downloader (``kusari.dataset.download``).

``cached_download(url)`` keeps files under ``KUSARI_DATASET_ROOT/_dl_cache`` and ``download_model(url)``
keeps model files under ``KUSARI_HOME/models``; both look in ``KUSARI_DOWNLOAD_MIRROR`` (a folder or URL
prefix) before the URL, write through a temporary file renamed into place, and, offline, say where
to put the file by hand.
"""
import os
import tarfile
import urllib.parse
import zipfile

from kusari.dataset.download import cached_download
from kusari.model_zoo.registry import models_dir

__all__ = ["cached_download", "download_model", "extractall"]


def download_model(url: str, sha256: str | None = None) -> str:
    """The path of a local copy of the model file at ``url``: ``KUSARI_HOME/models/<file name>``,
    downloaded once.

    Parameters
    ----------
    url : str
        The file's URL; its last path component names the local copy (as in ChainerCV, which kept
        it under ``$CHAINER_DATASET_ROOT/pfnet/chainercv/models``).
    sha256 : str, optional
        The file's expected SHA-256: a copy (cached or downloaded) that differs is refused and
        fetched again.

    Returns
    -------
    str
        The path of the file.

    Raises
    ------
    kusari.dataset.DownloadError
        No mirror entry or URL gave a (verified) copy; the message names where to put it by hand.
    """
    name = os.path.basename(urllib.parse.urlparse(url).path)
    if not name:
        raise ValueError(f"download_model: the URL {url!r} does not end in a file name")
    return cached_download(url, sha256, path=os.path.join(models_dir(), name))


def extractall(file_path: str, destination: str, ext: str) -> None:
    """Extract the archive ``file_path`` into the folder ``destination``.

    Parameters
    ----------
    file_path : str
        The archive.
    destination : str
        The folder to extract into.
    ext : {'.zip', '.tar', '.gz', '.tgz'}
        The archive's kind ('.gz' and '.tgz': a gzipped tar). Members that would land outside
        ``destination`` (absolute paths, '..', links out of it) are refused, as Python's 'data'
        extraction filter refuses them.
    """
    if ext == ".zip":
        with zipfile.ZipFile(file_path) as archive:
            archive.extractall(destination)   # zipfile drops absolute paths and '..' itself
        return
    modes = {".tar": "r:", ".gz": "r:gz", ".tgz": "r:gz"}
    if ext not in modes:
        raise ValueError(f"extractall: ext must be '.zip', '.tar', '.gz' or '.tgz', got {ext!r} (file_path={file_path!r})")
    with tarfile.open(file_path, modes[ext]) as archive:
        archive.extractall(destination, filter="data")
