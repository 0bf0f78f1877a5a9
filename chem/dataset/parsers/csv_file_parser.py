"""CSVFileParser: featurizes the SMILES column of a CSV file, with label columns as targets."""
import gzip
import os
import zlib

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
        frame = _read_csv(filepath, f"{type(self).__name__}.parse")
        return self._parse_frame(frame, os.fspath(filepath), return_smiles, target_index,
                                 return_is_successful)

    def extract_total_num(self, filepath) -> int:
        """The number of rows of the CSV file ``filepath``."""
        return len(_read_csv(filepath, f"{type(self).__name__}.extract_total_num"))


def _read_csv(filepath, caller: str) -> pandas.DataFrame:
    """``pandas.read_csv(filepath)``; a file it cannot parse is a ValueError naming ``caller`` and
    the file (pandas' message gives the line, but not the file)."""
    try:
        return pandas.read_csv(filepath)
    except (pandas.errors.ParserError, pandas.errors.EmptyDataError, UnicodeDecodeError, EOFError,
            gzip.BadGzipFile, zlib.error) as e:   # the last three: a damaged .csv.gz
        raise ValueError(f"{caller}: {os.fspath(filepath)} is not a readable CSV file ({e})") from None
