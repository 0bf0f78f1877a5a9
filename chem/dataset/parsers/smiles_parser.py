"""SmilesParser: featurizes a list of SMILES strings."""
import pandas

from kusari.chem.dataset.parsers.data_frame_parser import DataFrameParser


class SmilesParser(DataFrameParser):
    """Parser of a list of SMILES (no labels); skipping as :class:`DataFrameParser`.

    Parameters
    ----------
    preprocessor : MolPreprocessor
        Turns each molecule into features.
    postprocess_label : callable or None
        Unused (there are no labels); kept for Chainer Chemistry's signature.
    postprocess_fn : callable or None
        Applied to the dataset's arrays before the dataset is made.
    logger : logging.Logger or None
        Where skipped molecules are reported.
    """

    def __init__(self, preprocessor, postprocess_label=None, postprocess_fn=None, logger=None):
        super().__init__(preprocessor, labels=None, smiles_col='smiles',
                         postprocess_label=postprocess_label, postprocess_fn=postprocess_fn,
                         logger=logger)

    def parse(self, smiles_list, return_smiles: bool = False, target_index=None,
              return_is_successful: bool = False) -> dict:
        """Featurize the SMILES of ``smiles_list``; see :meth:`DataFrameParser.parse`.

        Returns
        -------
        dict
            ``'dataset'``, ``'smiles'`` and ``'is_successful'``, as :meth:`DataFrameParser.parse`.
        """
        return self._parse_frame(pandas.DataFrame({'smiles': smiles_list}), "smiles_list",
                                 return_smiles, target_index, return_is_successful)

    def extract_total_num(self, smiles_list) -> int:
        """The number of SMILES in ``smiles_list``."""
        return len(smiles_list)
