"""binary_accuracy: fraction of samples whose sign of the score matches a 0/1 label."""
from kusari import utils
from kusari.functions.evaluation.accuracy import _ratio
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import as_array
from kusari.utils.type_check import InvalidType


def binary_accuracy(y, t):
    """Binary accuracy of scores ``y`` against labels ``t`` of the same shape.

    The prediction is 1 where ``y >= 0`` and 0 elsewhere; labels equal to -1 are ignored (the result
    is 0 when all are). Not differentiable. Returns a 0-d Variable of y's dtype.
    """
    y = as_array(y)
    t = as_array(t)
    utils.check_float("binary_accuracy", "y", y)
    if t.dtype.kind not in "iu":
        raise InvalidType(None, None, f"binary_accuracy: t must be an integer array of labels, got dtype {t.dtype} "
                                      f"(t.shape={t.shape})")
    if y.shape != t.shape:
        raise InvalidType(None, None, f"binary_accuracy: y.shape={y.shape} does not match t.shape={t.shape}")
    return non_differentiable("BinaryAccuracy", _binary_accuracy, y, t)[0]


def _binary_accuracy(y, t):
    return _ratio(((y >= 0) == t).sum(), (t != -1).sum(), y.dtype),
