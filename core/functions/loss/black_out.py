"""black_out: BlackOut loss, a discriminative sampled approximation of a large softmax."""
from kusari import backend, utils
from kusari.functions.loss._common import (check_label_range, check_labels, check_reduce,
                                           check_sampled_inputs)
from kusari.variable import as_array


def _validate(x, t, W, samples):
    check_sampled_inputs("black_out", x, t, W)
    check_labels("black_out", "samples", samples)
    utils.check_ndim("black_out", "samples", samples, 2)
    if samples.shape[0] != x.shape[0]:
        raise ValueError(f"black_out: samples.shape[0]={samples.shape[0]} does not match "
                         f"x.shape[0]={x.shape[0]} (samples.shape={samples.shape}, x.shape={x.shape})")
    check_label_range("black_out", "t", t, W.shape[0])
    check_label_range("black_out", "samples", samples, W.shape[0])


def black_out(x, t, W, samples, reduce="mean"):
    """BlackOut loss: -log p(t) - sum over negative samples s of log(1 - p(s)).

    p is the softmax of the scores W[k] . x over the true label and the samples of the row.

    Parameters
    ----------
    x : float array of shape (N, D)
    t : signed integer array of shape (N,)
        True labels in [0, V).
    W : float array of shape (V, D), same dtype as ``x``
    samples : signed integer array of shape (N, S)
        Negative labels in [0, V).
    reduce : {'mean', 'no'}
        'mean' averages over the N rows (a scalar); 'no' returns shape (N,).

    See https://arxiv.org/abs/1511.06909.
    """
    check_reduce("black_out", reduce, ("mean", "no"))
    from kusari.functions.array.broadcast import broadcast_to
    from kusari.functions.array.get_item import get_item
    from kusari.functions.array.reshape import reshape
    from kusari.functions.math.exponential import exp, log
    from kusari.functions.math.logsumexp import logsumexp
    from kusari.functions.math.sum import mean, sum as _sum
    x_data, t_data, s_data = as_array(x), as_array(t), as_array(samples)
    _validate(x_data, t_data, as_array(W), s_data)
    xp = backend.get_array_module(x_data)
    n, d = x_data.shape
    labels = xp.concatenate([t_data[:, None], s_data.astype(t_data.dtype)], axis=1)
    w = get_item(W, labels)
    scores = _sum(w * broadcast_to(reshape(x, (n, 1, d)), w.shape), axis=2)
    logz = logsumexp(scores, axis=1)
    neg = get_item(scores, (slice(None), slice(1, None)))
    log_not_neg = log(1 - exp(neg - broadcast_to(reshape(logz, (n, 1)), neg.shape)))
    loss = logz - get_item(scores, (slice(None), 0)) - _sum(log_not_neg, axis=1)
    return mean(loss) if reduce == "mean" else loss
