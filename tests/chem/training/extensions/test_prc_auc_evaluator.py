"""PRCAUCEvaluator: area under scikit-learn's precision-recall curve after binarizing labels."""
import numpy
import pytest

pytest.importorskip("rdkit")
metrics = pytest.importorskip("sklearn.metrics")

from kusari.chem.training.extensions import PRCAUCEvaluator
from kusari.chem.training.extensions.prc_auc_evaluator import PRCAUCEvaluator as FromModule

Y = numpy.array([[0.1], [0.9], [0.4], [0.3], [0.8], [0.2], [0.6]], numpy.float32)
T = numpy.array([[0], [1], [-1], [1], [0], [-1], [1]], numpy.int32)


def _prc_auc(t, y):
    precision, recall, _ = metrics.precision_recall_curve(t, y)
    return metrics.auc(recall, precision)


def test_exported_from_the_package_and_its_module():
    assert PRCAUCEvaluator is FromModule


def test_ignore_labels_and_pos_labels(run_evaluator):
    kept = T.ravel() != -1
    observation = run_evaluator(PRCAUCEvaluator, Y, T, ignore_labels=-1)
    assert observation == {"main/prc_auc": _prc_auc(T.ravel()[kept], Y.ravel()[kept])}
    observation = run_evaluator(PRCAUCEvaluator, Y, T, pos_labels=[1, -1])
    assert observation["main/prc_auc"] == _prc_auc(T.ravel() != 0, Y.ravel())


def test_one_class_raises_or_reports_nan(run_evaluator):
    with pytest.raises(ValueError, match="PRCAUCEvaluator: only one class"):
        run_evaluator(PRCAUCEvaluator, Y, numpy.ones_like(T))
    observation = run_evaluator(PRCAUCEvaluator, Y, numpy.ones_like(T), raise_value_error=False)
    assert numpy.isnan(observation["main/prc_auc"])
