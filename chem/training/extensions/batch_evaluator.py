"""BatchEvaluator: scores a metric on the predictions for a whole validation set at once."""
import copy
from collections.abc import Callable
from logging import Logger, getLogger

import numpy

import kusari
from kusari import backend, reporter
from kusari.dataset import concat_examples
from kusari.training.extensions import Evaluator


def _to_1d_numpy(v) -> numpy.ndarray:
    if isinstance(v, kusari.Variable):
        v = v.array
    return backend.to_cpu(v).ravel()


class BatchEvaluator(Evaluator):
    """Gathers the predictions and labels of every batch, then reports ``metrics_fun`` on all of them.

    Unlike ``Evaluator``, which averages per-batch values, metrics that do not decompose over
    batches (ROC AUC, R^2) see the whole set. The converter must return ``(x_0, ..., x_n, t)``:
    the target (or ``eval_func``) is called on the x's and its output is compared with ``t``;
    both are flattened to 1-d.

    Parameters
    ----------
    iterator, target, converter, device, eval_hook, eval_func
        As for ``kusari.training.extensions.Evaluator``.
    metrics_fun : callable or dict of name -> callable
        ``metrics_fun(y_total, t_total)`` on the flattened arrays; a callable is reported as
        ``evaluation``.
    name : str or None
        This extension's name; it prefixes the reported keys (``<name>/main/<metric>``); None
        reports ``main/<metric>`` when called directly and takes ``default_name`` in a trainer.
    logger : logging.Logger or None
    """

    def __init__(self, iterator, target, converter: Callable = concat_examples, device=None,
                 eval_hook: Callable | None = None, eval_func: Callable | None = None,
                 metrics_fun=None, name: str | None = None, logger: Logger | None = None):
        super().__init__(iterator, target, converter=converter, device=device,
                         eval_hook=eval_hook, eval_func=eval_func)
        self.name = name
        self.logger = logger or getLogger()
        if callable(metrics_fun):
            self.metrics_fun = {"evaluation": metrics_fun}
        elif isinstance(metrics_fun, dict):
            self.metrics_fun = metrics_fun
        else:
            raise TypeError(f"{type(self).__name__}: metrics_fun must be a callable or a dict of "
                            f"them, got {type(metrics_fun).__name__}")

    def evaluate(self) -> dict:
        """Predict every batch, then report each metric on the concatenated predictions and labels."""
        iterator = self._iterators["main"]
        eval_func = self.eval_func or self._targets["main"]
        if self.eval_hook:
            self.eval_hook(self)
        if hasattr(iterator, "reset"):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        y_total = []
        t_total = []
        for batch in it:
            in_arrays = self.converter(batch, self.device)
            with kusari.no_backprop_mode(), kusari.using_config("train", False):
                y = eval_func(*in_arrays[:-1])
            y_total.append(_to_1d_numpy(y))
            t_total.append(_to_1d_numpy(in_arrays[-1]))
        y_total = numpy.concatenate(y_total)
        t_total = numpy.concatenate(t_total)
        metrics = {key: fun(y_total, t_total) for key, fun in self.metrics_fun.items()}
        observation = {}
        with reporter.report_scope(observation):
            reporter.report(metrics, self._targets["main"])
        return observation
