"""accuracy: fraction of samples whose argmax over the class axis equals the label."""
import functools

from kusari import backend, utils
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import as_array
from kusari.utils.type_check import InvalidType


def _check_labels(fname, y, t):
    """y: (N, K, *rest) float scores, t: (N, *rest) integer labels (trailing size-1 axes of y allowed)."""
    utils.check_float(fname, "y", y)
    if t.dtype.kind not in "iu":
        raise InvalidType(None, None, f"{fname}: t must be an integer array of labels, got dtype {t.dtype} "
                                      f"(t.shape={t.shape})")
    rest = y.shape[2:]
    ok = (y.ndim >= 2 and y.ndim > t.ndim and y.shape[0] == (t.shape[0] if t.ndim else -1)
          and rest[:t.ndim - 1] == t.shape[1:] and all(s == 1 for s in rest[t.ndim - 1:]))
    if not ok:
        raise InvalidType(None, None, f"{fname}: y.shape={y.shape} must be (N, K, *t.shape[1:]) for t.shape={t.shape}")


def _predict(y, t):
    return y.argmax(axis=1).reshape(t.shape)


def _ratio(count, total, dtype):
    """count / max(total, 1) as a 0-d array of ``dtype``, computed without a device sync."""
    xp = backend.get_array_module(count)
    return utils.force_array(xp.asarray(count) / xp.maximum(xp.asarray(total), 1)).astype(dtype)


def accuracy(y, t, ignore_label=None):
    """Classification accuracy of scores ``y`` (N, K, ...) against labels ``t`` (N, ...).

    The prediction is ``argmax`` over axis 1. Samples whose label is ``ignore_label`` are left out;
    the result is 0 when every sample is ignored. Not differentiable. Returns a 0-d Variable of y's dtype.
    """
    y = as_array(y)
    t = as_array(t)
    _check_labels("accuracy", y, t)
    return non_differentiable("Accuracy", functools.partial(_accuracy, ignore_label=ignore_label), y, t)[0]


def _accuracy(y, t, ignore_label):
    correct = _predict(y, t) == t
    if ignore_label is None:
        count, total = correct.sum(), t.size
    else:
        keep = t != ignore_label
        count, total = (correct & keep).sum(), keep.sum()
    return _ratio(count, total, y.dtype),
