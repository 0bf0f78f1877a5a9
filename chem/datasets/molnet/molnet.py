"""MoleculeNet loaders: download, featurize and split the datasets named in ``molnet_default_config``.

Parsed datasets are not cached: Chainer Chemistry's examples cache them as NumpyTupleDataset
``.npz`` files, whose ragged features are pickles, and kusari writes no pickle caches. Only the
downloaded CSV files are cached (see :mod:`kusari.chem.datasets.molnet._files` for which of them
are verified by checksum).
"""
import numpy
import pandas

from kusari.chem.datasets.molnet._files import molnet_file
from kusari.chem.datasets.molnet.molnet_config import molnet_default_config
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset

# kusari.chem.dataset (parsers, preprocessors, splitters) is imported inside the functions: its
# parsers import this package for NumpyTupleDataset, so a module-level import would be circular.

# A widely shared copy of BBBP.csv names its label column 'BBBP' instead of MoleculeNet's 'p_np'.
_LABEL_ALIASES = {'p_np': 'BBBP'}
_FILETYPES = ('onefile', 'train', 'valid', 'test')


def _regression_label(label_list) -> numpy.ndarray:
    return numpy.asarray(label_list, dtype=numpy.float32)


def _classification_label(label_list) -> numpy.ndarray:
    # -1 marks a missing label: the classifiers' losses ignore it
    label = numpy.asarray(label_list, dtype=numpy.float64)
    label[numpy.isnan(label)] = -1
    return label.astype(numpy.int32)


# 'mix' (ChEMBL) holds both kinds of task: values stay float32, missing ones NaN
_POSTPROCESS_LABEL = {'regression': _regression_label, 'classification': _classification_label,
                      'mix': _regression_label}


def _config(dataset_name: str, caller: str) -> dict:
    if dataset_name not in molnet_default_config:
        raise ValueError(f"{caller}: unknown dataset_name {dataset_name!r}; choose from "
                         f"{list(molnet_default_config)}")
    return molnet_default_config[dataset_name]


def _splitter(split, default: str, caller: str):
    from kusari.chem.dataset.splitters import BaseSplitter, split_method_dict
    split = default if split is None else split
    if isinstance(split, BaseSplitter):
        return split
    if isinstance(split, str):
        if split not in split_method_dict:
            raise ValueError(f"{caller}: unknown split {split!r}; choose from {list(split_method_dict)} "
                             "or pass a BaseSplitter")
        return split_method_dict[split]()
    raise TypeError(f"{caller}: split must be None, a str or a BaseSplitter, got {type(split).__name__}")


def _parser(config: dict, labels, preprocessor, filepath: str):
    from kusari.chem.dataset.parsers import CSVFileParser
    from kusari.chem.dataset.preprocessors import AtomicNumberPreprocessor
    labels = labels or config['tasks']
    labels = [labels] if isinstance(labels, str) else list(labels)
    columns = set(pandas.read_csv(filepath, nrows=0).columns)
    labels = [_LABEL_ALIASES[name] if name not in columns and _LABEL_ALIASES.get(name) in columns
              else name for name in labels]
    return CSVFileParser(preprocessor or AtomicNumberPreprocessor(), labels=labels,
                         smiles_col=config['smiles_columns'],
                         postprocess_label=_POSTPROCESS_LABEL[config['task_type']])


def _split(result: dict, splitter, return_smiles: bool, **split_kwargs) -> tuple:
    """Replace ``result``'s dataset (and SMILES) by their (train, valid, test) parts; return the indices."""
    dataset, smiles = result['dataset'], result['smiles']
    indices = splitter.train_valid_test_split(dataset, smiles_list=smiles, **split_kwargs)
    result['dataset'] = tuple(NumpyTupleDataset(*[array[index] for array in dataset.get_datasets()])
                              for index in indices)
    result['smiles'] = tuple(smiles[index] for index in indices) if return_smiles else None
    return indices


def get_molnet_dataset(dataset_name: str, preprocessor=None, labels=None, split=None,
                       frac_train: float = .8, frac_valid: float = .1, frac_test: float = .1,
                       seed: int | None = 777, return_smiles: bool = False,
                       return_pdb_id: bool = False, target_index=None, task_index: int = 0,
                       **kwargs) -> dict:
    """Download, featurize and split a MoleculeNet dataset.

    Molecules whose SMILES RDKit cannot parse are skipped, and their number is logged as a
    warning by the parser. Labels are float32 for regression tasks; for classification tasks
    int32 with -1 where the CSV has no value.

    Parameters
    ----------
    dataset_name : str
        A key of ``molnet_default_config`` ('delaney', 'tox21', 'bbbp', 'lipo', 'SAMPL', ...).
    preprocessor : MolPreprocessor or None
        Featurizer of the molecules; default ``AtomicNumberPreprocessor()``.
    labels : str, list of str or None
        Label columns; default the entry's ``tasks``.
    split : str, BaseSplitter or None
        A key of ``split_method_dict`` or a splitter; default the entry's ``split``.
    frac_train, frac_valid, frac_test : float
        Fractions of the three parts.
    seed : int or None
        Passed to the splitter. (Chainer Chemistry 0.7.1 takes it but never passes it on, so its
        splits are unseeded; here the 'random' split equals ``RandomSplitter`` with this seed.)
    return_smiles : bool
        Whether to return the canonical SMILES of each part.
    return_pdb_id : bool
        'pdbbind_smiles' only: whether to return the PDB IDs of each part.
    target_index : list of int or None
        Rows of the CSV file to parse; None: all.
    task_index : int
        The task the stratified splitter stratifies by.
    **kwargs
        Passed to the splitter; for 'pdbbind_smiles' also ``pdbbind_subset`` ('core', 'full' or
        'refined') and ``time_list`` (the time splitter's years).

    Returns
    -------
    dict
        ``'dataset'``: ``(train, valid, test)`` NumpyTupleDatasets whose arrays are the
        preprocessor's features and, last, the labels ``(N_part, n_labels)``; ``'smiles'``:
        three ``(N_part,)`` object arrays, or None; ``'is_successful'``: None; for
        'pdbbind_smiles' also ``'pdb_id'``: three ``(N_part,)`` object arrays or None.
    """
    from kusari.chem.dataset.splitters import DeepChemScaffoldSplitter, ScaffoldSplitter
    caller = 'get_molnet_dataset'
    config = _config(dataset_name, caller)
    if config['dataset_type'] == 'joblib':
        return get_grid_featurized_pdbbind_dataset(kwargs.get('pdbbind_subset'))
    if dataset_name == 'pdbbind_smiles':
        return get_pdbbind_smiles(kwargs.pop('pdbbind_subset', None), preprocessor, labels, split,
                                  frac_train, frac_valid, frac_test, return_smiles, return_pdb_id,
                                  target_index, task_index, kwargs.pop('time_list', None),
                                  seed=seed, **kwargs)
    if config['dataset_type'] == 'separate_csv':
        paths = [get_molnet_filepath(dataset_name, part) for part in ('train', 'valid', 'test')]
        parser = _parser(config, labels, preprocessor, paths[0])
        parts = [parser.parse(path, return_smiles=return_smiles, target_index=target_index)
                 for path in paths]
        return {'dataset': tuple(part['dataset'] for part in parts),
                'smiles': tuple(part['smiles'] for part in parts)}

    splitter = _splitter(split, config['split'], caller)
    path = get_molnet_filepath(dataset_name)
    parser = _parser(config, labels, preprocessor, path)
    # scaffold splitters need the SMILES even when the caller does not
    need_smiles = return_smiles or isinstance(splitter, (ScaffoldSplitter, DeepChemScaffoldSplitter))
    result = parser.parse(path, return_smiles=need_smiles, target_index=target_index)
    _split(result, splitter, return_smiles, task_index=task_index, frac_train=frac_train,
           frac_valid=frac_valid, frac_test=frac_test, seed=seed, **kwargs)
    return result


def get_pdbbind_smiles(pdbbind_subset: str, preprocessor=None, labels=None, split=None,
                       frac_train: float = .8, frac_valid: float = .1, frac_test: float = .1,
                       return_smiles: bool = False, return_pdb_id: bool = True, target_index=None,
                       task_index: int = 0, time_list=None, **kwargs) -> dict:
    """Download, featurize and split a PDBbind subset's ligands (SMILES and -logKd/Ki).

    Parameters
    ----------
    pdbbind_subset : str
        'core', 'full' or 'refined'.
    time_list : list or None
        Per-row years for the default time split (e.g. from ``get_pdbbind_time``).
    **kwargs
        Passed to the splitter (e.g. ``seed``).

    Other parameters and the result are as :func:`get_molnet_dataset`'s; ``'pdb_id'`` holds the
    PDB IDs of the three parts (``(N_part,)`` object arrays) when ``return_pdb_id``.
    """
    caller = 'get_pdbbind_smiles'
    config = molnet_default_config['pdbbind_smiles']
    splitter = _splitter(split, config['split'], caller)
    path = get_molnet_filepath('pdbbind_smiles', pdbbind_subset=pdbbind_subset)
    parser = _parser(config, labels, preprocessor, path)
    result = parser.parse(path, return_smiles=return_smiles, return_is_successful=True,
                          target_index=target_index)
    indices = _split(result, splitter, return_smiles, time_list=time_list, task_index=task_index,
                     frac_train=frac_train, frac_valid=frac_valid, frac_test=frac_test, **kwargs)
    result['pdb_id'] = None
    if return_pdb_id:
        pdb_id = pandas.read_csv(path)['id'].to_numpy(dtype=object)
        if target_index is not None:
            pdb_id = pdb_id[numpy.asarray(target_index)]
        pdb_id = pdb_id[result['is_successful']]
        result['pdb_id'] = tuple(pdb_id[index] for index in indices)
    return result


def get_grid_featurized_pdbbind_dataset(subset: str):
    """Not supported: MoleculeNet ships grid-featurized PDBbind ('pdbbind_grid') as joblib pickles.

    Raises
    ------
    ValueError
        Always: loading a pickle runs code from the file, and kusari loads none. Use
        'pdbbind_smiles' with a preprocessor instead.
    """
    raise ValueError(f"get_grid_featurized_pdbbind_dataset: the grid-featurized PDBbind subset "
                     f"{subset!r} is distributed as joblib pickles, which kusari does not load "
                     "(unpickling runs code from the file); use dataset_name='pdbbind_smiles'")


def get_molnet_dataframe(dataset_name: str, pdbbind_subset: str | None = None):
    """Download a MoleculeNet dataset and read it, unprocessed, with ``pandas.read_csv``.

    Parameters
    ----------
    dataset_name : str
        A key of ``molnet_default_config`` (not 'pdbbind_grid').
    pdbbind_subset : str or None
        'pdbbind_smiles' only: 'core', 'full' or 'refined'.

    Returns
    -------
    pandas.DataFrame or tuple of pandas.DataFrame
        The file's table (missing values NaN); for 'separate_csv' datasets the (train, valid,
        test) tables.
    """
    config = _config(dataset_name, 'get_molnet_dataframe')
    if config['dataset_type'] == 'joblib':
        get_grid_featurized_pdbbind_dataset(pdbbind_subset)
    if config['dataset_type'] == 'separate_csv':
        return tuple(pandas.read_csv(get_molnet_filepath(dataset_name, part))
                     for part in ('train', 'valid', 'test'))
    return pandas.read_csv(get_molnet_filepath(dataset_name, pdbbind_subset=pdbbind_subset))


def get_molnet_filepath(dataset_name: str, filetype: str = 'onefile',
                        download_if_not_exist: bool = True, pdbbind_subset: str | None = None) -> str:
    """The cache path of a MoleculeNet file, downloaded (and verified where a checksum is known) if needed.

    Parameters
    ----------
    dataset_name : str
        A key of ``molnet_default_config``.
    filetype : str
        'onefile', or 'train' / 'valid' / 'test' for 'separate_csv' datasets.
    download_if_not_exist : bool
        False: only compute the path (the file may be absent).
    pdbbind_subset : str or None
        For 'pdbbind_smiles' and 'pdbbind_grid': 'core', 'full' or 'refined'.

    Returns
    -------
    str
        ``<dataset root>/pfnet/chainer/molnet/<file name of the URL>``.

    Raises
    ------
    kusari.dataset.download.DownloadError
        No source (mirror, URL) gave a copy that passes the file's checksum.
    """
    caller = 'get_molnet_filepath'
    config = _config(dataset_name, caller)
    if filetype not in _FILETYPES:
        raise ValueError(f"{caller}: filetype must be one of {list(_FILETYPES)}, got {filetype!r}")
    url_key = 'url' if filetype == 'onefile' else filetype + '_url'
    if url_key not in config:
        raise ValueError(f"{caller}: dataset {dataset_name!r} has no {filetype!r} file; its URLs "
                         f"are {[key for key in config if key.endswith('url')]}")
    url = config[url_key]
    if isinstance(url, dict):
        if pdbbind_subset not in url:
            raise ValueError(f"{caller}: dataset {dataset_name!r} needs pdbbind_subset, one of "
                             f"{list(url)}; got {pdbbind_subset!r}")
        url = url[pdbbind_subset]
    return molnet_file(url, download_if_not_exist)
