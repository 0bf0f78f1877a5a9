"""QM9 (Ramakrishnan et al. 2014): 134k small organic molecules with 15 DFT-computed properties.

The canonical archive (figshare's ``dsgdb9nsd.xyz.tar.bz2``, one XYZ file per molecule) is
downloaded without verification (no checksum of it is known here) and converted once into
``<dataset root>/pfnet/chainer/qm9/qm9.csv``, the table Chainer Chemistry makes (an index column,
``SMILES1``, ``SMILES2`` and the 15 properties, molecules in file-name order). That CSV is the
only cache: parsed datasets are not cached (no pickles).
"""
import os
import tarfile

import numpy
import pandas

from kusari.dataset.download import cache_or_load_file, cached_download, get_dataset_directory

download_url = 'https://ndownloader.figshare.com/files/3195389'
file_name = 'qm9.csv'

_root = 'pfnet/chainer/qm9'
_archive_name = 'dsgdb9nsd.xyz.tar.bz2'
_label_names = ['A', 'B', 'C', 'mu', 'alpha', 'homo', 'lumo', 'gap', 'r2', 'zpve', 'U0', 'U', 'H',
                'G', 'Cv']
_smiles_column_names = ['SMILES1', 'SMILES2']


def get_qm9_label_names() -> list:
    """The 15 property names of QM9, in the order of its XYZ files' second line."""
    return list(_label_names)


def get_qm9(preprocessor=None, labels=None, return_smiles: bool = False, target_index=None):
    """Download QM9 and featurize its molecules (from their ``SMILES1``) with float32 labels.

    Parameters
    ----------
    preprocessor : MolPreprocessor or None
        Featurizer; default ``AtomicNumberPreprocessor()``.
    labels : str, list of str or None
        Properties to use as labels (see :func:`get_qm9_label_names`); default all 15.
    return_smiles : bool
        Whether to return the canonical SMILES too.
    target_index : list of int or None
        Rows to parse; None: all.

    Returns
    -------
    NumpyTupleDataset or tuple
        The preprocessor's features and, last, the labels ``(N, n_labels)`` float32; with
        ``return_smiles``, ``(dataset, smiles)`` where ``smiles`` is an ``(N,)`` object array.
    """
    # imported here: kusari.chem.dataset's parsers import this package (for NumpyTupleDataset)
    from kusari.chem.dataset.parsers import CSVFileParser
    from kusari.chem.dataset.preprocessors import AtomicNumberPreprocessor
    labels = labels or get_qm9_label_names()
    parser = CSVFileParser(preprocessor or AtomicNumberPreprocessor(),
                           postprocess_label=lambda label: numpy.asarray(label, dtype=numpy.float32),
                           labels=labels, smiles_col='SMILES1')
    result = parser.parse(get_qm9_filepath(), return_smiles=return_smiles, target_index=target_index)
    return (result['dataset'], result['smiles']) if return_smiles else result['dataset']


def get_qm9_filepath(download_if_not_exist: bool = True) -> str:
    """The path of QM9's CSV table, made from the downloaded archive if needed.

    A cached table whose header is not QM9's is rebuilt.

    Parameters
    ----------
    download_if_not_exist : bool
        False: only compute the path (the file may be absent).

    Returns
    -------
    str
        ``<dataset root>/pfnet/chainer/qm9/qm9.csv``.
    """
    path = os.path.join(get_dataset_directory(_root, create_directory=download_if_not_exist), file_name)
    if download_if_not_exist:
        cache_or_load_file(path, download_and_extract_qm9, _check_table)
    return path


def _check_table(path: str) -> str:
    columns = list(pandas.read_csv(path, index_col=0, nrows=1).columns)
    if columns != _smiles_column_names + _label_names:
        raise ValueError(f"{path}: columns {columns} are not QM9's")
    return path


def _parse_xyz(text: str, name: str) -> list:
    """``[SMILES1, SMILES2, *15 properties]`` of one QM9 XYZ file."""
    lines = [line.strip() for line in text.splitlines()]
    try:
        n_atoms = int(lines[0])
        # Mathematica-style exponents ('1.2*^-6') occur in the files
        properties = [float(v.replace('*^', 'e')) for v in lines[1].split('\t')[1:]]
        smiles = lines[3 + n_atoms].split('\t')
    except (ValueError, IndexError) as e:
        raise ValueError(f"download_and_extract_qm9: {name} is not a QM9 XYZ file ({e})") from None
    if len(properties) != len(_label_names) or len(smiles) != len(_smiles_column_names):
        raise ValueError(f"download_and_extract_qm9: {name} has {len(properties)} properties and "
                         f"{len(smiles)} SMILES; QM9 files have {len(_label_names)} and 2")
    return smiles + properties


def download_and_extract_qm9(save_filepath: str) -> bool:
    """Download QM9's archive and write its molecules as one CSV table to ``save_filepath``.

    Parameters
    ----------
    save_filepath : str
        Where the table goes (columns: index, SMILES1, SMILES2, the 15 properties).

    Returns
    -------
    bool
        True.
    """
    archive = cached_download(download_url,
                              path=os.path.join(get_dataset_directory(_root), _archive_name))
    with tarfile.open(archive, 'r:*') as tar:
        members = sorted((m for m in tar.getmembers() if m.isfile() and m.name.endswith('.xyz')),
                         key=lambda m: m.name)
        rows = [_parse_xyz(tar.extractfile(m).read().decode('ascii'), m.name) for m in members]
    pandas.DataFrame(rows, columns=_smiles_column_names + _label_names).to_csv(save_filepath)
    return True
