"""R2ScoreEvaluator: the coefficient of determination R^2 of a regressor over a whole validation set."""
from collections.abc import Callable
from logging import Logger

from kusari import backend
from kusari.chem.training.extensions.batch_evaluator import BatchEvaluator
from kusari.dataset import concat_examples

_MULTIOUTPUTS = ("uniform_average", "raw_values")


class R2ScoreEvaluator(BatchEvaluator):
    """Reports ``r2_score``: ``1 - sum((y - t)^2) / sum((t - mean(t))^2)`` (0 where ``t`` is constant).

    The predictions and labels of all batches are flattened into one column each (as Chainer
    Chemistry does), so a multi-task model gets one score over all its outputs.

    Parameters
    ----------
    iterator, target, converter, device, eval_hook, eval_func, name, logger
        As for ``BatchEvaluator``; the converter returns ``(x_0, ..., x_n, t)``.
    pos_label, ignore_labels, raise_value_error
        Kept as attributes for Chainer Chemistry's signature; R^2 does not use them.
    sample_weight : None
        Only None is supported (scikit-learn's argument, for compatibility).
    multioutput : str
        ``'uniform_average'`` (the mean over columns, a 0-d array) or ``'raw_values'`` (one score per
        column).
    ignore_nan : bool
        Zero the NaN deviations (NaN predictions or labels) before summing. A NaN label also makes
        the label mean NaN, which zeroes every deviation from it: the score is then 0.0, as upstream.
    """

    def __init__(self, iterator, target, converter: Callable = concat_examples, device=None,
                 eval_hook: Callable | None = None, eval_func: Callable | None = None,
                 name: str | None = None, pos_label=1, ignore_labels=None,
                 raise_value_error: bool = True, logger: Logger | None = None, sample_weight=None,
                 multioutput: str = "uniform_average", ignore_nan: bool = False):
        super().__init__(iterator, target, converter=converter, device=device,
                         eval_hook=eval_hook, eval_func=eval_func,
                         metrics_fun={"r2_score": self.r2_score}, name=name, logger=logger)
        self.pos_label = pos_label
        self.ignore_labels = ignore_labels
        self.raise_value_error = raise_value_error
        self.sample_weight = sample_weight
        self.multioutput = multioutput
        self.ignore_nan = ignore_nan

    def r2_score(self, pred, true, sample_weight=None, multioutput: str | None = None,
                 ignore_nan: bool | None = None):
        """R^2 of ``pred`` against ``true``, per column of axis 0.

        Parameters
        ----------
        pred, true : arrays of the same shape (N,) or (N, D)
        sample_weight : None
            Only None is supported (here and in the constructor).
        multioutput, ignore_nan
            None (default) takes the evaluator's setting.

        Returns
        -------
        array
            0-d for ``'uniform_average'``, shape (D,) for ``'raw_values'``; in ``pred``'s dtype.
        """
        multioutput = self.multioutput if multioutput is None else multioutput
        ignore_nan = self.ignore_nan if ignore_nan is None else ignore_nan
        if sample_weight is not None or self.sample_weight is not None:
            raise NotImplementedError("R2ScoreEvaluator.r2_score: sample_weight is not supported; "
                                      "pass None")
        if multioutput not in _MULTIOUTPUTS:
            raise ValueError(f"R2ScoreEvaluator.r2_score: multioutput must be one of "
                             f"{_MULTIOUTPUTS}, got {multioutput!r}")
        xp = backend.get_array_module(pred)
        diff = pred - true
        dev = true - xp.mean(true, axis=0)
        if ignore_nan:
            diff[xp.isnan(diff)] = 0.
            dev[xp.isnan(dev)] = 0.
        ss_res = xp.asarray(xp.sum(diff ** 2, axis=0))
        ss_tot = xp.asarray(xp.sum(dev ** 2, axis=0))
        constant = ss_tot == 0
        ss_tot[constant] = 1  # placeholder: the score of a constant column is set to 0 below
        score = xp.where(constant, 0.0, 1 - ss_res / ss_tot).astype(pred.dtype)
        if multioutput == "uniform_average":
            return xp.asarray(score.mean())
        return score
