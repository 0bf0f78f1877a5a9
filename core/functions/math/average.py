"""average: the (optionally weighted) mean over axes."""
from kusari import backend, utils
from kusari.functions.math.sum import mean, sum
from kusari.variable import Variable, as_variable


def average(x, axis=None, weights=None, keepdims=False, returned=False):
    """Weighted mean of ``x`` over ``axis`` (None: all axes; an int or a tuple of ints).

    ``weights`` is None (plain mean), an array of ``x``'s shape, or, for an int ``axis``, a 1-D
    array of length ``x.shape[axis]``. Returns ``x``'s shape without the reduced axes (kept as
    length 1 with ``keepdims``); with ``returned=True``, the pair (average, sum of weights), the
    sum broadcast to the average's shape (as ``numpy.average``).
    """
    from kusari.functions.array.broadcast import broadcast_to
    from kusari.functions.array.reshape import reshape
    x = as_variable(x)
    utils.check_float("average", "x", x)
    axes = utils.normalize_axis("average", axis, x.ndim)
    if weights is None:
        avg = mean(x, axis=axis, keepdims=keepdims)
        if not returned:
            return avg
        count = utils.size_of_shape(x.shape[a] for a in axes)
        xp = backend.get_array_module(x.array)
        return avg, Variable(xp.full(avg.shape, count, x.dtype), requires_grad=False)
    weights = as_variable(weights)
    utils.check_float("average", "weights", weights)
    utils.check_same_dtype("average", x=x, weights=weights)
    if weights.shape != x.shape:
        if not (weights.ndim == 1 and axis is not None and len(axes) == 1
                and weights.shape[0] == x.shape[axes[0]]):
            raise ValueError(f"average: weights.shape={weights.shape} must equal x.shape={x.shape}, "
                             f"or be (x.shape[axis],) for an int axis (axis={axis})")
        kept = tuple(s if i == axes[0] else 1 for i, s in enumerate(x.shape))
        weights = broadcast_to(reshape(weights, kept), x.shape)
    total = sum(weights, axis=axis, keepdims=keepdims)
    avg = sum(x * weights, axis=axis, keepdims=keepdims) / total
    return (avg, total) if returned else avg
