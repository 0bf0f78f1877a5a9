"""DataFrameParser: featurizes the SMILES column of a pandas DataFrame, with label columns as targets."""
import logging

from rdkit import Chem

from kusari.chem.dataset.parsers._collector import FeatureCollector, progress
from kusari.chem.dataset.parsers.base_parser import BaseFileParser
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class DataFrameParser(BaseFileParser):
    """Parser of a DataFrame with a SMILES column and optional label columns.

    SMILES that RDKit cannot parse, and molecules whose features cannot be made (e.g. more atoms
    than the preprocessor's ``max_atoms``), are skipped; their number and row numbers are logged
    as a warning, and ``parse(..., return_is_successful=True)`` marks them.

    Parameters
    ----------
    preprocessor : MolPreprocessor
        Turns each molecule into features.
    labels : str, list of str or None
        Label column(s); their values form the dataset's last array, ``(N, len(labels))``.
    smiles_col : str
        The SMILES column.
    postprocess_label : callable or None
        Applied to each molecule's label list (e.g. to cast it to float32).
    postprocess_fn : callable or None
        Applied to the dataset's arrays before the dataset is made; returns the new arrays.
    logger : logging.Logger or None
        Where skipped molecules are reported; default: this module's logger.
    """

    def __init__(self, preprocessor, labels=None, smiles_col: str = 'smiles',
                 postprocess_label=None, postprocess_fn=None, logger=None):
        super().__init__(preprocessor)
        self.labels = [labels] if isinstance(labels, str) else labels
        self.smiles_col = smiles_col
        self.postprocess_label = postprocess_label
        self.postprocess_fn = postprocess_fn
        self.logger = logger or logging.getLogger(__name__)

    def parse(self, df, return_smiles: bool = False, target_index=None,
              return_is_successful: bool = False) -> dict:
        """Featurize every (or every ``target_index``) row of ``df``.

        Parameters
        ----------
        df : pandas.DataFrame
            The data, with ``smiles_col`` and the label columns.
        return_smiles : bool
            Whether to return the canonical SMILES of the molecules kept.
        target_index : list of int or None
            Row positions to parse; None: all rows.
        return_is_successful : bool
            Whether to return, per parsed row, whether it was kept.

        Returns
        -------
        dict
            ``'dataset'``: NumpyTupleDataset of the features (and labels last) of the ``N`` kept
            molecules; ``'smiles'``: ``(N,)`` object array or None; ``'is_successful'``: bool
            array, one per parsed row, or None.
        """
        return self._parse_frame(df, "the DataFrame", return_smiles, target_index,
                                 return_is_successful)

    def _parse_frame(self, df, source: str, return_smiles, target_index, return_is_successful):
        caller = f"{type(self).__name__}.parse"
        if not isinstance(self.preprocessor, MolPreprocessor):
            raise TypeError(f"{caller}: preprocessor must be a MolPreprocessor, got "
                            f"{type(self.preprocessor).__name__}")
        for kind, names in (("SMILES", [self.smiles_col]), ("label", self.labels or [])):
            for name in names:
                if name not in df.columns:
                    raise ValueError(f"{caller}: {kind} column {name!r} is not in {source}; its "
                                     f"columns are {list(df.columns)}")
        rows = range(len(df))
        if target_index is not None:
            rows = list(target_index)
            df = df.iloc[rows]
        smiles_index = df.columns.get_loc(self.smiles_col)
        label_indices = [df.columns.get_loc(name) for name in self.labels or []]
        # the source (a file's path) goes into every report of a skipped row
        collector = FeatureCollector(f"{caller} of {source}", self.labels is not None, self.logger)
        for row, values in progress(zip(rows, df.itertuples(index=False)), total=len(df)):
            collector.collect(row, lambda: self._featurize(values[smiles_index],
                                                           [values[i] for i in label_indices]))
        return collector.result(self.preprocessor, self.postprocess_fn, return_smiles,
                                return_is_successful)

    def _featurize(self, smiles, labels):
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            return None
        canonical_smiles, mol = self.preprocessor.prepare_smiles_and_mol(mol)
        features = self.preprocessor.get_input_features(mol)
        if self.postprocess_label is not None:
            labels = self.postprocess_label(labels)
        return features, labels, canonical_smiles

    def extract_total_num(self, df) -> int:
        """The number of rows of ``df`` (the range of ``target_index``; more than the molecules kept if some fail)."""
        return len(df)
