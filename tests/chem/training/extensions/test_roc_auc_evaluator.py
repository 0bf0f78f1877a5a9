"""ROCAUCEvaluator: scikit-learn's ROC AUC after ignoring and binarizing labels."""
import logging

import numpy
import pytest

pytest.importorskip("rdkit")
metrics = pytest.importorskip("sklearn.metrics")

from kusari.chem.training.extensions import ROCAUCEvaluator

Y = numpy.array([[0.1], [0.9], [0.4], [0.3], [0.8], [0.2], [0.6]], numpy.float32)
T = numpy.array([[0], [1], [-1], [1], [0], [-1], [1]], numpy.int32)


def test_ignore_labels_drop_their_examples(run_evaluator):
    observation = run_evaluator(ROCAUCEvaluator, Y, T, ignore_labels=-1)
    kept = T.ravel() != -1
    assert observation == {"main/roc_auc": metrics.roc_auc_score(T.ravel()[kept], Y.ravel()[kept])}
    # without ignoring, -1 counts as negative
    observation = run_evaluator(ROCAUCEvaluator, Y, T)
    assert observation["main/roc_auc"] == metrics.roc_auc_score(T.ravel() == 1, Y.ravel())
    assert observation["main/roc_auc"] != metrics.roc_auc_score(T.ravel()[kept], Y.ravel()[kept])


def test_pos_labels_list(run_evaluator):
    observation = run_evaluator(ROCAUCEvaluator, Y, T, pos_labels=[1, -1])
    assert observation["main/roc_auc"] == metrics.roc_auc_score(T.ravel() != 0, Y.ravel())


def test_one_class_raises_by_default(run_evaluator):
    with pytest.raises(ValueError, match="ROCAUCEvaluator: only one class"):
        run_evaluator(ROCAUCEvaluator, Y, numpy.ones_like(T))
    # ignoring the negatives leaves one class too
    with pytest.raises(ValueError, match="only one class"):
        run_evaluator(ROCAUCEvaluator, Y, T, ignore_labels=[0, -1])


def test_one_class_reports_nan_and_warns_when_asked(run_evaluator, caplog):
    with caplog.at_level(logging.WARNING):
        observation = run_evaluator(ROCAUCEvaluator, Y, numpy.zeros_like(T),
                                    raise_value_error=False)
    assert numpy.isnan(observation["main/roc_auc"])
    assert "roc_auc" in caplog.text
