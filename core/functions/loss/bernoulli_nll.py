"""bernoulli_nll: negative log-likelihood of data under a Bernoulli distribution with logits."""
from kusari.functions.loss._common import PointwiseLoss


class BernoulliNLL(PointwiseLoss):
    fname = "bernoulli_nll"
    argnames = ("x", "y")
    reductions = ("sum", "mean", "no")

    def _loss(self, xp, x, y):
        from kusari.functions.activation.softplus import softplus_array
        return softplus_array(xp, y) - x * y

    def _grads(self, indexes, inputs, gy):
        from kusari.functions.activation.sigmoid import sigmoid
        x, y = inputs
        return tuple(-(gy * y) if i == 0 else gy * (sigmoid(y) - x) for i in indexes)


def bernoulli_nll(x, y, reduce="sum"):
    """Negative log-likelihood of ``x`` under Bernoulli(sigmoid(y)): softplus(y) - x * y.

    Parameters
    ----------
    x : float array, any shape
        The data (usually in [0, 1]).
    y : float array, same shape and dtype as ``x``
        Logits (pre-sigmoid parameters) of the distribution.
    reduce : {'sum', 'mean', 'no'}
        'sum' returns a scalar, 'mean' the scalar average; 'no' the elementwise loss of ``x``'s shape.
    """
    return BernoulliNLL(reduce).apply((x, y))[0]
