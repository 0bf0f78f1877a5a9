"""SDFFileParser: featurizes the molecules of an SDF file, with SDF fields as labels."""
import logging
import os

from rdkit import Chem

from kusari.chem.dataset.parsers._collector import FeatureCollector, progress
from kusari.chem.dataset.parsers.base_parser import BaseFileParser
from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor


class SDFFileParser(BaseFileParser):
    """Parser of an SDF file; labels are the records' data fields (``preprocessor.get_label``).

    Records RDKit cannot read, and molecules whose features cannot be made, are skipped and
    reported as in :class:`DataFrameParser`.

    Parameters
    ----------
    preprocessor : MolPreprocessor
        Turns each molecule into features.
    labels : str, list of str or None
        Data field name(s) of the labels (a missing field gives None).
    postprocess_label : callable or None
        Applied to each molecule's label list.
    postprocess_fn : callable or None
        Applied to the dataset's arrays before the dataset is made.
    logger : logging.Logger or None
        Where skipped molecules are reported.
    """

    def __init__(self, preprocessor, labels=None, postprocess_label=None, postprocess_fn=None,
                 logger=None):
        super().__init__(preprocessor)
        self.labels = labels
        self.postprocess_label = postprocess_label
        self.postprocess_fn = postprocess_fn
        self.logger = logger or logging.getLogger(__name__)

    def parse(self, filepath, return_smiles: bool = False, target_index=None,
              return_is_successful: bool = False) -> dict:
        """Featurize every (or every ``target_index``) record of the SDF file ``filepath``.

        Returns
        -------
        dict
            ``'dataset'``, ``'smiles'`` and ``'is_successful'``, as :meth:`DataFrameParser.parse`.
        """
        caller = f"{type(self).__name__}.parse"
        if not isinstance(self.preprocessor, MolPreprocessor):
            raise TypeError(f"{caller}: preprocessor must be a MolPreprocessor, got "
                            f"{type(self.preprocessor).__name__}")
        supplier = _supplier(filepath, caller)
        rows = range(len(supplier)) if target_index is None else target_index
        # the file goes into every report of a skipped record
        collector = FeatureCollector(f"{caller} of {os.fspath(filepath)}", self.labels is not None,
                                     self.logger)
        for row in progress(rows, total=len(rows)):
            # the supplier does not take NumPy integers
            collector.collect(int(row), lambda: self._featurize(supplier[int(row)]))
        return collector.result(self.preprocessor, self.postprocess_fn, return_smiles,
                                return_is_successful)

    def _featurize(self, mol):
        if mol is None:
            return None
        pp = self.preprocessor
        # the data fields are lost when the molecule is rebuilt from SMILES below
        label = None
        if self.labels is not None:
            label = pp.get_label(mol, self.labels)
            if self.postprocess_label is not None:
                label = self.postprocess_label(label)
        canonical_smiles, mol = pp.prepare_smiles_and_mol(Chem.MolFromSmiles(Chem.MolToSmiles(mol)))
        return pp.get_input_features(mol), label, canonical_smiles

    def extract_total_num(self, filepath) -> int:
        """The number of records in the SDF file ``filepath``."""
        return len(_supplier(filepath, f"{type(self).__name__}.extract_total_num"))


def _supplier(filepath, caller: str):
    """RDKit's reader of the SDF file ``filepath``; a missing file is named (RDKit says "Bad input
    file")."""
    if not os.path.isfile(filepath):
        raise FileNotFoundError(f"{caller}: no such SDF file: {os.fspath(filepath)!r}")
    return Chem.SDMolSupplier(os.fspath(filepath))
