"""r2_score: coefficient of determination of predictions against targets, per output column."""
import functools

from kusari import backend, utils
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import as_array


def r2_score(pred, true, sample_weight=None, multioutput='uniform_average'):
    """R^2 = 1 - SS_res / SS_tot over axis 0, per output column; 0 where SS_tot is 0 (as Chainer).

    pred, true: (N, ...) of one float dtype. ``sample_weight`` (N,) weights the samples as in
    scikit-learn (Chainer only accepted None). ``multioutput``: 'uniform_average' returns the mean
    over columns as a 0-d Variable, 'raw_values' one score per column (shape pred.shape[1:]).
    Not differentiable.
    """
    fname = "r2_score"
    pred = as_array(pred)
    true = as_array(true)
    if multioutput not in ("uniform_average", "raw_values"):
        raise ValueError(f"{fname}: multioutput must be 'uniform_average' or 'raw_values', "
                         f"got {multioutput!r}")
    utils.check_float(fname, "pred", pred)
    utils.check_same_dtype(fname, pred=pred, true=true)
    utils.check_same_shape(fname, pred=pred, true=true)
    if pred.ndim == 0:
        raise ValueError(f"{fname}: pred and true must have a sample axis, got 0-d arrays")
    if sample_weight is None:
        w = backend.get_array_module(pred).ones(pred.shape[0], pred.dtype)
    else:
        w = as_array(sample_weight)
        if w.shape != pred.shape[:1]:
            raise ValueError(f"{fname}: sample_weight.shape={w.shape} must be ({pred.shape[0]},) "
                             f"for pred.shape={pred.shape}")
        w = w.astype(pred.dtype, copy=False)
    return non_differentiable("R2Score", functools.partial(_r2, multioutput=multioutput), pred, true, w)[0]


def _r2(pred, true, w, multioutput):
    xp = backend.get_array_module(pred)
    w = w.reshape((-1,) + (1,) * (pred.ndim - 1))
    true_mean = (w * true).sum(axis=0) / w.sum(axis=0)
    ss_res = (w * (pred - true) ** 2).sum(axis=0)
    ss_tot = (w * (true - true_mean) ** 2).sum(axis=0)
    zero = ss_tot == 0
    score = xp.where(zero, 0, 1 - ss_res / xp.where(zero, 1, ss_tot)).astype(pred.dtype)
    if multioutput == "uniform_average":
        score = score.mean()
    return score,
