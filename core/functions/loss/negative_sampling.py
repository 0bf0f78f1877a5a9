"""negative_sampling: word2vec's negative-sampling loss, a sampled stand-in for a large softmax."""
from kusari import backend
from kusari.functions.loss._common import (check_label_range, check_labels, check_reduce,
                                           check_sampled_inputs)
from kusari.utils import argument
from kusari.variable import as_array

_IGNORE_LABEL = -1


def _validate(x, t, W, sample_size):
    check_sampled_inputs("negative_sampling", x, t, W)
    if int(sample_size) != sample_size or sample_size < 0:
        raise ValueError(f"negative_sampling: sample_size must be a non-negative integer, got {sample_size}")
    check_label_range("negative_sampling", "t", t, W.shape[0], _IGNORE_LABEL)


def negative_sampling(x, t, W, sampler, sample_size, reduce="sum", **kwargs):
    """Negative sampling loss: -log sigmoid(w_t . x) - sum over sampled k of log sigmoid(-w_k . x).

    Parameters
    ----------
    x : float array of shape (N, D)
        Input vectors.
    t : signed integer array of shape (N,)
        Positive labels in [0, V); rows labelled -1 are ignored (loss and gradient 0).
    W : float array of shape (V, D), same dtype as ``x``
        Output embeddings.
    sampler : callable
        ``sampler(shape)`` returns an integer array of that shape with negative labels in
        [0, V), e.g. a ``kusari.utils.WalkerAlias`` sampler.
    sample_size : int
        Number of negative samples per row.
    reduce : {'sum', 'no'}
        'sum' returns a scalar; 'no' the loss of each row, shape (N,).
    return_samples : bool, keyword only
        Also return the (N, 1 + sample_size) label array used: column 0 holds ``t``, the rest the
        negative samples.
    """
    return_samples, = argument.parse_kwargs(kwargs, ("return_samples", False))
    check_reduce("negative_sampling", reduce, ("sum", "no"))
    from kusari.functions.activation.softplus import softplus
    from kusari.functions.array.broadcast import broadcast_to
    from kusari.functions.array.get_item import get_item
    from kusari.functions.array.reshape import reshape
    from kusari.functions.math.sum import sum as _sum
    x_data, t_data, w_data = as_array(x), as_array(t), as_array(W)
    _validate(x_data, t_data, w_data, sample_size)
    xp = backend.get_array_module(x_data)
    n, d = x_data.shape
    samples = xp.asarray(sampler((n, int(sample_size) + 1)))
    if samples.shape != (n, int(sample_size) + 1):
        raise ValueError(f"negative_sampling: sampler returned shape {samples.shape}, expected "
                         f"{(n, int(sample_size) + 1)}")
    check_labels("negative_sampling", "the sampler's output", samples)
    # Column 0 is replaced by t below, so only the negatives must index rows of W.
    check_label_range("negative_sampling", "the sampler's output", samples[:, 1:], w_data.shape[0])
    samples = samples.astype(t_data.dtype, copy=True)
    valid = t_data != _IGNORE_LABEL
    samples[:, 0] = xp.where(valid, t_data, 0)

    w = get_item(W, samples)
    wx = _sum(w * broadcast_to(reshape(x, (n, 1, d)), w.shape), axis=2)
    # The positive column enters as softplus(-w.x), the negatives as softplus(w.x).
    sign = xp.ones((1, samples.shape[1]), x_data.dtype)
    sign[0, 0] = -1
    loss = softplus(wx * sign) * valid.astype(x_data.dtype)[:, None]
    loss = _sum(loss) if reduce == "sum" else _sum(loss, axis=1)
    return (loss, samples) if return_samples else loss
