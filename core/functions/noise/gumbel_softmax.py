"""gumbel_softmax: a differentiable relaxation of sampling from a categorical distribution."""
from kusari import backend, utils
from kusari.static_graph import static_code
from kusari.variable import as_array, as_variable


@static_code
def gumbel_noise(like):
    """Gumbel(0, 1) draws of ``like``'s shape, dtype and device (an array or Variable); drawn in
    ``static_code`` so that a static_graph replay draws anew instead of reusing the trace's noise."""
    arr = as_array(like)
    xp = backend.get_array_module(arr)
    return xp.random.gumbel(size=arr.shape).astype(arr.dtype, copy=False)


def gumbel_softmax(log_pi, tau=0.1, axis=1):
    """``softmax((log_pi + g) / tau, axis)`` with Gumbel(0, 1) noise ``g`` (Jang et al., 2017).

    log_pi: float array of (unnormalized) log-probabilities with at least one dimension;
    tau: positive temperature (small: close to one-hot samples). Returns a Variable shaped like
    ``log_pi``, positive and summing to one along ``axis``.
    """
    from kusari.functions.activation.softmax import softmax
    if not tau > 0:
        raise ValueError(f"gumbel_softmax: tau must be positive, got tau={tau}")
    arr = as_array(log_pi)
    utils.check_float("gumbel_softmax", "log_pi", arr)
    if arr.ndim == 0:
        raise ValueError("gumbel_softmax: log_pi must have at least one dimension, got shape ()")
    g = gumbel_noise(log_pi)
    return softmax((as_variable(log_pi) + g) * (1.0 / tau), axis=axis)
