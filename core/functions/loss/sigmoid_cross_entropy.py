"""sigmoid_cross_entropy: binary cross entropy of pre-sigmoid scores against 0/1 labels."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_labels, check_reduce

_IGNORE_LABEL = -1


class SigmoidCrossEntropy(FunctionNode):
    def __init__(self, normalize, reduce):
        check_reduce("sigmoid_cross_entropy", reduce, ("mean", "no"))
        self.normalize = normalize
        self.reduce = reduce

    def forward(self, inputs):
        x, t = inputs
        utils.check_float("sigmoid_cross_entropy", "x", x)
        check_labels("sigmoid_cross_entropy", "t", t)
        if t.shape != x.shape:
            raise ValueError(f"sigmoid_cross_entropy: t.shape={t.shape} does not match "
                             f"x.shape={x.shape}")
        if x.ndim == 0:
            raise ValueError("sigmoid_cross_entropy: x must have a batch axis, got a 0-dimensional array")
        if bool(((t != 0) & (t != 1) & (t != _IGNORE_LABEL)).any()):
            raise ValueError("sigmoid_cross_entropy: t values must be 0, 1 or -1 (ignored)")
        from kusari.functions.activation.softplus import softplus_array
        xp = backend.get_array_module(x)
        valid = (t != _IGNORE_LABEL).astype(x.dtype)
        target = t.astype(x.dtype) * valid
        loss = (softplus_array(xp, x) - x * target) * valid
        self.retain_inputs((0,))
        self._target = target
        if self.reduce == "no":
            self._weight = valid
            return utils.force_array(loss),
        count = int(valid.sum()) if self.normalize else len(x)
        coeff = 1.0 / max(count, 1)
        self._weight = valid * coeff
        return utils.force_array(loss.sum() * coeff),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.activation.sigmoid import sigmoid
        x, = self.get_retained_inputs()
        gx = (sigmoid(x) - self._target) * self._weight * grad_outputs[0]
        return tuple(gx if i == 0 else None for i in indexes)


def sigmoid_cross_entropy(x, t, normalize=True, reduce="mean"):
    """Cross entropy of sigmoid(x) against binary labels ``t``; labels equal to -1 are ignored.

    Parameters
    ----------
    x : float array of shape (N, ...)
        Pre-sigmoid scores.
    t : signed integer array of the same shape
        Labels 0 or 1, or -1 to ignore the element.
    normalize : bool
        With reduce='mean': divide the summed loss by the number of non-ignored elements (True)
        or by N (False).
    reduce : {'mean', 'no'}
        'mean' returns a scalar; 'no' the elementwise loss (0 where ignored), of ``x``'s shape.
    """
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]
