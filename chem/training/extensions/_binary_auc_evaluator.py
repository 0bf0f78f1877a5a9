"""The label handling that ROCAUCEvaluator and PRCAUCEvaluator share: ignore, binarize, one-class check."""
from collections.abc import Callable
from logging import Logger

import numpy

from kusari.chem.training.extensions.batch_evaluator import BatchEvaluator
from kusari.dataset import concat_examples


def _to_list(a):
    """A single int or float label as a one-element list; lists and None as they are."""
    if isinstance(a, (int, float)):
        return [a]
    return a


class BinaryAUCEvaluator(BatchEvaluator):
    """A BatchEvaluator of one binary-classification area-under-curve score.

    Subclasses name the metric (``metric_name``) and compute it from binary labels and scores.
    Labels in ``ignore_labels`` are dropped, labels in ``pos_labels`` become 1 and all others 0.
    With only one class left the score is undefined: a ValueError, or NaN with a warning when
    ``raise_value_error`` is False (as for any ValueError the score raises).
    """

    metric_name = ""

    def __init__(self, iterator, target, converter: Callable = concat_examples, device=None,
                 eval_hook: Callable | None = None, eval_func: Callable | None = None,
                 name: str | None = None, pos_labels=1, ignore_labels=None,
                 raise_value_error: bool = True, logger: Logger | None = None):
        super().__init__(iterator, target, converter=converter, device=device,
                         eval_hook=eval_hook, eval_func=eval_func,
                         metrics_fun={self.metric_name: self._score}, name=name, logger=logger)
        self.pos_labels = _to_list(pos_labels)
        self.ignore_labels = _to_list(ignore_labels)
        self.raise_value_error = raise_value_error

    def _curve_score(self, t_binary: numpy.ndarray, y_score: numpy.ndarray) -> float:
        raise NotImplementedError(f"{type(self).__name__} must implement _curve_score")

    def _score(self, y_total: numpy.ndarray, t_total: numpy.ndarray) -> float:
        if self.ignore_labels:
            kept = ~numpy.isin(t_total, self.ignore_labels)
            y_total = y_total[kept]
            t_total = t_total[kept]
        t_binary = numpy.where(numpy.isin(t_total, self.pos_labels), 1, 0)
        try:
            if len(numpy.unique(t_binary)) != 2:
                # scikit-learn >= 1.7 returns NaN here; Chainer Chemistry raised (or warned)
                raise ValueError(f"{type(self).__name__}: only one class is present in the labels "
                                 f"({t_binary.size} kept, pos_labels={self.pos_labels}, "
                                 f"ignore_labels={self.ignore_labels}); {self.metric_name} is "
                                 f"not defined in that case")
            return self._curve_score(t_binary, y_total)
        except ValueError as e:
            if self.raise_value_error:
                raise
            self.logger.warning("%s: ValueError while computing %s, reporting NaN: %s",
                                type(self).__name__, self.metric_name, e)
            return numpy.nan
