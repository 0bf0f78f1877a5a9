"""PRCAUCEvaluator: area under the precision-recall curve of a binary classifier over a validation set."""
import numpy

from kusari.chem.training.extensions._binary_auc_evaluator import BinaryAUCEvaluator


class PRCAUCEvaluator(BinaryAUCEvaluator):
    """Reports ``prc_auc``: the trapezoidal area under scikit-learn's precision-recall curve.

    Parameters
    ----------
    iterator, target, converter, device, eval_hook, eval_func, name, logger
        As for ``BatchEvaluator``; the converter returns ``(x_0, ..., x_n, t)``.
    pos_labels : int or list
        Labels of the positive class; every other label is negative.
    ignore_labels : int, list or None
        Labels whose examples are left out (e.g. -1 for missing).
    raise_value_error : bool
        Raise when the score is undefined (one class only); False reports NaN with a warning.
    """

    metric_name = "prc_auc"

    def prc_auc_score(self, y_total: numpy.ndarray, t_total: numpy.ndarray) -> float:
        """PRC AUC of scores ``y_total`` against labels ``t_total`` (both shape (N,))."""
        return self._score(y_total, t_total)

    def _curve_score(self, t_binary, y_score):
        from sklearn import metrics   # here, not at import: scikit-learn takes about a second to load
        precision, recall, _ = metrics.precision_recall_curve(t_binary, y_score)
        return metrics.auc(recall, precision)
