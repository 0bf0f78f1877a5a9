"""The MoleculeNet file cache: where each file lives and which checksum it must pass.

Files go to ``<dataset root>/pfnet/chainer/molnet/<file name>`` (Chainer Chemistry's folder, under
``KUSARI_DATASET_ROOT``) through :func:`kusari.dataset.download.cached_download`, so
``KUSARI_DOWNLOAD_MIRROR`` is consulted first and a cached copy that fails its checksum is
replaced. Verified files: ``delaney-processed.csv``, ``SAMPL.csv``, ``Lipophilicity.csv``,
``tox21.csv.gz`` and ``bace.csv`` (SHA-256), and ``BBBP.csv`` (the canonical file's MD5 as published
in other projects' loaders, or the SHA-256 of a widely shared CC0 copy whose columns are reduced to
``BBBP,smiles``). Every other file (HIV, MUV, PCBA, ToxCast, ChEMBL, clintox, sider, QM7/8/9,
PDBbind, ...) is downloaded without verification: no checksum of it is known here.
"""
import os

from kusari.dataset.download import Checksum, ChecksumError, cached_download, get_dataset_directory

_ROOT = 'pfnet/chainer/molnet'
# where a mirror may keep the files besides _ROOT and its top level (KUSARI_DOWNLOAD_MIRROR)
_MIRROR_FOLDER = 'moleculenet'


class _AnyOf:
    """A verifier that passes a file matching any one of several checksums."""

    def __init__(self, *checksums: Checksum):
        self.checksums = checksums

    def __call__(self, path: str) -> None:
        problems = []
        for checksum in self.checksums:
            try:
                return checksum(path)
            except ChecksumError as e:
                problems.append(str(e))
        raise ChecksumError(" and ".join(problems) + " (any one would do)")

    def __repr__(self):
        return f"_AnyOf{self.checksums!r}"


_VERIFIERS = {
    'delaney-processed.csv': Checksum('8c06a76f0c6487d29ab0f903e6a7a7139f189ab3c1178f159c8be8964602f189'),
    'SAMPL.csv': Checksum('ab5895d914ee87cb563bd7b9611e869527bba45bec6b014d34dc495a0f9dcb72'),
    'Lipophilicity.csv': Checksum('aed41590cb30609d51d8e08ad3ff06495a76e80e211358801f596b10da69bacd'),
    'tox21.csv.gz': Checksum('5fcaead970f5dde7b0513928f4a17ea768677bf3bd457ef122c7bd65a58ad97b'),
    'bace.csv': Checksum('f3fb9ce90bada3e2bd6148b0df13f8f8145a357bf87df0dd5b391ede974fc737'),
    'BBBP.csv': _AnyOf(Checksum('66286cb9e6b148bd75d80c870df580fb', algorithm='md5'),
                       Checksum('34c10e0f0b15dbc178c3ce4ad9774decc6a202776a31763f5a899309c97497ee')),
}


def molnet_file(url: str, download_if_not_exist: bool = True) -> str:
    """The cache path of the MoleculeNet file at ``url``, downloaded (and verified) if needed.

    Parameters
    ----------
    url : str
        The canonical URL; its last path component names the cached file.
    download_if_not_exist : bool
        False: only compute the path (the file may be absent).

    Returns
    -------
    str
        ``<dataset root>/pfnet/chainer/molnet/<file name>``.

    Raises
    ------
    kusari.dataset.download.DownloadError
        No source gave a copy that passes the file's checksum.
    """
    name = url.split('/')[-1]
    path = os.path.join(get_dataset_directory(_ROOT, create_directory=download_if_not_exist), name)
    if download_if_not_exist:
        cached_download(url, path=path, verify=_VERIFIERS.get(name), mirror_folder=_MIRROR_FOLDER)
    return path
