"""BatchEvaluator: metrics on the whole set's flattened predictions and labels, not batch means."""
import numpy
import pytest

pytest.importorskip("rdkit")

from kusari.chem.training.extensions import BatchEvaluator


def test_metric_sees_all_batches_flattened(run_evaluator):
    y = numpy.arange(14, dtype=numpy.float32).reshape(7, 2)
    t = -y
    seen = {}

    def metric(y_total, t_total):
        seen["y"], seen["t"] = y_total, t_total
        return float(numpy.median(y_total))

    observation = run_evaluator(BatchEvaluator, y, t, batch_size=3, metrics_fun=metric)
    numpy.testing.assert_array_equal(seen["y"], y.ravel())
    numpy.testing.assert_array_equal(seen["t"], t.ravel())
    # the median of all 14 values, which no mean of per-batch medians gives
    assert observation == {"main/evaluation": 6.5}


def test_dict_of_metrics_and_the_name_prefix(run_evaluator):
    y = numpy.ones((4, 1), numpy.float32)
    observation = run_evaluator(BatchEvaluator, y, y, metrics_fun={"a": lambda y, t: 1,
                                                                   "b": lambda y, t: 2},
                                name="val")
    assert observation == {"val/main/a": 1, "val/main/b": 2}


def test_eval_func_replaces_the_target(run_evaluator):
    y = numpy.ones((4, 1), numpy.float32)
    observation = run_evaluator(BatchEvaluator, y, y, eval_func=lambda x: x * 3,
                                metrics_fun=lambda y, t: float(y.sum()))
    assert observation == {"main/evaluation": 12.0}


def test_metrics_fun_must_be_callable_or_dict(run_evaluator):
    y = numpy.ones((2, 1), numpy.float32)
    with pytest.raises(TypeError, match="BatchEvaluator: metrics_fun must be a callable or a dict"):
        run_evaluator(BatchEvaluator, y, y, metrics_fun=None)
