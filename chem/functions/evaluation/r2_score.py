"""r2_score: the coefficient of determination R^2 per output column (not differentiable)."""
import kusari
from kusari import backend

_MULTIOUTPUTS = ("uniform_average", "raw_values")


class R2Score(kusari.Function):
    """R^2 of ``pred`` against ``true`` along axis 0; see :func:`r2_score`."""

    def __init__(self, sample_weight=None, multioutput: str = "uniform_average",
                 ignore_nan: bool = False):
        if sample_weight is not None:
            raise NotImplementedError("r2_score: sample_weight is not supported; pass None")
        if multioutput not in _MULTIOUTPUTS:
            raise ValueError(f"r2_score: multioutput must be one of {_MULTIOUTPUTS}, "
                             f"got {multioutput!r}")
        self.multioutput = multioutput
        self.ignore_nan = ignore_nan

    def forward(self, inputs):
        pred, true = inputs
        if pred.dtype.kind != "f" or true.dtype.kind != "f":
            raise TypeError(f"r2_score: pred and true must be float arrays, got "
                            f"pred.dtype={pred.dtype}, true.dtype={true.dtype}")
        if pred.shape != true.shape:
            raise ValueError(f"r2_score: pred and true must have the same shape, got "
                             f"pred.shape={pred.shape}, true.shape={true.shape}")
        xp = backend.get_array_module(pred)
        diff = pred - true
        dev = true - xp.mean(true, axis=0)
        if self.ignore_nan:
            # As Chainer Chemistry: a NaN in ``true`` makes its column's mean NaN, so that whole
            # column counts as constant and scores 0.
            diff[xp.isnan(diff)] = 0
            dev[xp.isnan(dev)] = 0
        ss_res = xp.asarray(xp.sum(diff ** 2, axis=0))
        ss_tot = xp.asarray(xp.sum(dev ** 2, axis=0))
        constant = ss_tot == 0
        ss_tot[constant] = 1  # any nonzero value: those columns score 0 below
        scores = xp.where(constant, 0.0, 1 - ss_res / ss_tot).astype(pred.dtype)
        if self.multioutput == "uniform_average":
            return xp.asarray(scores.mean()),
        return scores,


def r2_score(pred, true, sample_weight=None, multioutput: str = "uniform_average",
             ignore_nan: bool = False):
    """Coefficient of determination ``1 - SS_res / SS_tot`` of each output column.

    A column whose ``true`` values are constant scores 0.

    Parameters
    ----------
    pred, true : Variable or array, shape (N,) or (N, ...), float
        Predicted and correct values.
    sample_weight : None
        Only None is supported (kept for scikit-learn's signature).
    multioutput : {'uniform_average', 'raw_values'}
        Average the columns' scores, or return one per column.
    ignore_nan : bool
        Count NaN differences and deviations as 0.

    Returns
    -------
    Variable
        0-d for 'uniform_average', shape ``pred.shape[1:]`` for 'raw_values'; ``pred``'s dtype.
    """
    return R2Score(sample_weight=sample_weight, multioutput=multioutput,
                   ignore_nan=ignore_nan)(pred, true)
