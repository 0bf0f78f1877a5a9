"""PDBbind's year table: the release year of each complex, for MoleculeNet's time split."""
import pandas

from kusari.chem.datasets.molnet._files import molnet_file

_URL = 'http://deepchem.io.s3-website-us-west-1.amazonaws.com/datasets/pdbbind_year.csv'


def get_pdbbind_time() -> list:
    """The release years of PDBbind's complexes, in the year table's row order.

    Returns
    -------
    list of int
        One year per row of ``pdbbind_year.csv`` (its second column).
    """
    return pandas.read_csv(get_pdbbind_time_filepath(), header=None)[1].tolist()


def get_pdbbind_time_filepath(download_if_not_exist: bool = True) -> str:
    """The cache path of ``pdbbind_year.csv`` (unverified: no checksum is known), downloaded if needed.

    Parameters
    ----------
    download_if_not_exist : bool
        False: only compute the path.

    Returns
    -------
    str
        ``<dataset root>/pfnet/chainer/molnet/pdbbind_year.csv``.
    """
    return molnet_file(_URL, download_if_not_exist)
