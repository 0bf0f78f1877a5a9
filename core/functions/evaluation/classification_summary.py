"""classification_summary, precision, recall, f1_score: per-class scores of a classifier's predictions."""
import functools

import numpy

from kusari import backend
from kusari.functions.evaluation.accuracy import _check_labels, _predict
from kusari.functions.util.non_differentiable import non_differentiable
from kusari.variable import as_array


def _summary(fname, y, t, label_num, beta, ignore_label):
    y = as_array(y)
    t = as_array(t)
    _check_labels(fname, y, t)
    scores = functools.partial(_scores, label_num=label_num, beta=beta, ignore_label=ignore_label)
    return non_differentiable("ClassificationSummary", scores, y, t)


def _scores(y, t, label_num, beta, ignore_label):
    """(precision, recall, F-beta, support) arrays."""
    xp = backend.get_array_module(y)
    if label_num is None:
        label_num = int(t.max()) + 1 if t.size else 0
    mask = t == ignore_label
    pred = xp.where(mask, label_num, _predict(y, t)).ravel()
    true = xp.where(mask, label_num, t).ravel()

    def count(labels):
        return xp.bincount(labels, minlength=label_num + 1)[:label_num]

    support = count(true)
    relevant = count(pred)
    tp = count(xp.where(pred == true, true, label_num))
    b2 = float(beta) ** 2
    # Classes never predicted (or never present) give 0/0 = nan, as in Chainer.
    with numpy.errstate(divide="ignore", invalid="ignore"):
        precision = tp / relevant
        recall = tp / support
        fbeta = (1 + b2) * precision * recall / (b2 * precision + recall)
    return precision.astype(y.dtype), recall.astype(y.dtype), fbeta.astype(y.dtype), support


def classification_summary(y, t, label_num=None, beta=1.0, ignore_label=-1):
    """Per-class precision, recall, F-beta score and support of scores ``y`` against labels ``t``.

    y: (N, K, ...) scores, the prediction is argmax over axis 1; t: (N, ...) labels in
    ``[0, label_num)`` (``label_num`` defaults to ``t.max() + 1``); samples labelled
    ``ignore_label`` are left out. Returns four Variables of shape (label_num,): precision,
    recall and F-beta in y's dtype (nan for 0/0), support as integers. Not differentiable.
    """
    return _summary("classification_summary", y, t, label_num, beta, ignore_label)


def precision(y, t, label_num=None, ignore_label=-1):
    """Per-class precision ``tp / (tp + fp)``; returns (precision, support) (see classification_summary)."""
    p, _, _, support = _summary("precision", y, t, label_num, 1.0, ignore_label)
    return p, support


def recall(y, t, label_num=None, ignore_label=-1):
    """Per-class recall ``tp / (tp + fn)``; returns (recall, support), see ``classification_summary``."""
    _, r, _, support = _summary("recall", y, t, label_num, 1.0, ignore_label)
    return r, support


def f1_score(y, t, label_num=None, ignore_label=-1):
    """Per-class F1 score; returns (f1, support), see ``classification_summary``."""
    _, _, f1, support = _summary("f1_score", y, t, label_num, 1.0, ignore_label)
    return f1, support
