"""Collects the parsers' per-molecule features into dataset columns, and counts and reports skipped molecules."""
import logging
import traceback

import numpy

from kusari.chem.dataset.preprocessors.common import MolFeatureExtractionError

# how many skipped row numbers a warning lists before it abbreviates
_ROWS_SHOWN = 20


def progress(iterable, total: int):
    """``iterable`` wrapped in a tqdm progress bar when tqdm is installed (as Chainer Chemistry shows one)."""
    try:
        from tqdm import tqdm
    except ImportError:
        return iterable
    return tqdm(iterable, total=total)


def stack_column(values: list) -> numpy.ndarray:
    """One dataset column from per-molecule values.

    Parameters
    ----------
    values : list
        ``N`` arrays (or label lists).

    Returns
    -------
    numpy.ndarray
        ``(N, *shape)`` when the values share a shape (their dtype kept), else a 1-D object array
        of the ``N`` values (NumPy 2 no longer builds ragged arrays implicitly).
    """
    try:
        return numpy.asarray(values)
    except ValueError:
        column = numpy.empty(len(values), dtype=object)
        for i, value in enumerate(values):
            column[i] = value
        return column


class FeatureCollector:
    """Runs the preprocessor on one molecule at a time and keeps the features of those that succeed.

    Parameters
    ----------
    caller : str
        Name used in messages, e.g. ``'CSVFileParser.parse'``.
    with_labels : bool
        Whether a label column follows the features.
    logger : logging.Logger
        Where skipped molecules are reported.
    """

    def __init__(self, caller: str, with_labels: bool, logger: logging.Logger):
        self.caller = caller
        self.with_labels = with_labels
        self.logger = logger
        self.columns = None
        self.smiles = []
        self.is_successful = []
        self.failed_rows = []

    def collect(self, row, extract) -> None:
        """Run ``extract()`` for the molecule at ``row``, keeping its result or counting it as skipped.

        Parameters
        ----------
        row : int
            The molecule's row number in the source, for the report.
        extract : callable
            Returns ``(input_features, label, canonical_smiles)``, or None when the molecule
            cannot be read; raises MolFeatureExtractionError when its features cannot be made
            (e.g. more atoms than ``max_atoms``).
        """
        try:
            item = extract()
        except MolFeatureExtractionError:
            item = None
        except Exception as e:  # any other failure skips only this molecule, as in Chainer Chemistry
            self.logger.warning("%s: row %s failed with %s: %s", self.caller, row, type(e).__name__, e)
            self.logger.info(traceback.format_exc())
            item = None
        self.is_successful.append(item is not None)
        if item is None:
            self.failed_rows.append(row)
            return
        features, label, smiles = item
        if not isinstance(features, tuple):
            features = (features,)
        if self.columns is None:
            self.columns = [[] for _ in range(len(features) + self.with_labels)]
        for column, value in zip(self.columns, features + ((label,) if self.with_labels else ())):
            column.append(value)
        self.smiles.append(smiles)

    def result(self, preprocessor, postprocess_fn, return_smiles: bool,
               return_is_successful: bool) -> dict:
        """The parsers' return value, after reporting the skipped molecules.

        Returns
        -------
        dict
            ``'dataset'``: ``preprocessor.create_dataset(*columns)`` (after ``postprocess_fn``);
            ``'smiles'``: ``(N,)`` object array of canonical SMILES or None; ``'is_successful'``:
            ``(rows,)`` bool array, False where a row was skipped, or None.
        """
        total = len(self.is_successful)
        n_failed = len(self.failed_rows)
        if n_failed:
            shown = ", ".join(str(r) for r in self.failed_rows[:_ROWS_SHOWN])
            more = ", ..." if n_failed > _ROWS_SHOWN else ""
            self.logger.warning(
                "%s: skipped %d of %d molecules (unparsable, or features could not be made) "
                "at rows [%s%s]", self.caller, n_failed, total, shown, more)
        self.logger.info("Preprocess finished. FAIL %d, SUCCESS %d, TOTAL %d",
                         n_failed, total - n_failed, total)
        if self.columns is None:
            raise ValueError(f"{self.caller}: none of the {total} molecules could be preprocessed "
                             f"by {type(preprocessor).__name__}, so there is no dataset")
        columns = tuple(stack_column(column) for column in self.columns)
        if postprocess_fn is not None:
            columns = postprocess_fn(*columns)
        return {
            "dataset": preprocessor.create_dataset(*columns),
            "smiles": numpy.array(self.smiles, dtype=object) if return_smiles else None,
            "is_successful": numpy.array(self.is_successful) if return_is_successful else None,
        }
