"""CSVFileParser: featurizes the SMILES column of a CSV file, with label columns as targets."""
import os

import pandas

from kusari.chem.dataset.parsers.data_frame_parser import DataFrameParser


class CSVFileParser(DataFrameParser):
    """Parser of a CSV file (read with ``pandas.read_csv``; ``.gz`` works) with a SMILES column.

    Parameters and skipping as :class:`DataFrameParser`.
    """

    def parse(self, filepath, return_smiles: bool = False, target_index=None,
              return_is_successful: bool = False) -> dict:
        """Featurize the rows of the CSV file ``filepath``; see :meth:`DataFrameParser.parse`.

        Returns
        -------
        dict
            ``'dataset'``, ``'smiles'`` and ``'is_successful'``, as :meth:`DataFrameParser.parse`.
        """
        return self._parse_frame(pandas.read_csv(filepath), os.fspath(filepath), return_smiles,
                                 target_index, return_is_successful)

    def extract_total_num(self, filepath) -> int:
        """The number of rows of the CSV file ``filepath``."""
        return len(pandas.read_csv(filepath))
