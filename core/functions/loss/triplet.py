"""triplet: triplet margin loss on squared Euclidean distances."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_margin, check_reduce


class Triplet(FunctionNode):
    def __init__(self, margin, reduce):
        self.margin = check_margin("triplet", margin)
        check_reduce("triplet", reduce, ("mean", "no"))
        self.reduce = reduce

    def forward(self, inputs):
        anchor, positive, negative = inputs
        named = {"anchor": anchor, "positive": positive, "negative": negative}
        for name, v in named.items():
            utils.check_float("triplet", name, v)
        utils.check_same_dtype("triplet", **named)
        utils.check_ndim("triplet", "anchor", anchor, 2)
        utils.check_same_shape("triplet", **named)
        xp = backend.get_array_module(anchor)
        dp = anchor - positive
        dn = anchor - negative
        dist = (dp * dp - dn * dn).sum(axis=1) + self.margin
        self._active = (dist > 0).astype(anchor.dtype)[:, None]
        self.retain_inputs((0, 1, 2))
        loss = xp.maximum(dist, 0)
        if self.reduce == "mean":
            loss = loss.sum() * (1.0 / max(len(anchor), 1))
        return utils.force_array(loss),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        anchor, positive, negative = self.get_retained_inputs()
        gy, = grad_outputs
        n = anchor.shape[0]
        gy = gy * (2.0 / max(n, 1)) if self.reduce == "mean" else reshape(gy, (n, 1)) * 2.0
        g = gy * self._active
        pairs = {0: (negative, positive), 1: (positive, anchor), 2: (anchor, negative)}
        return tuple(g * (pairs[i][0] - pairs[i][1]) for i in indexes)


def triplet(anchor, positive, negative, margin=0.2, reduce="mean"):
    """Triplet loss max(0, |a - p|^2 - |a - n|^2 + margin) per sample.

    Parameters
    ----------
    anchor, positive, negative : float arrays of one shape (N, K) and dtype
    margin : float
        Positive margin.
    reduce : {'mean', 'no'}
        'mean' averages over the N samples (a scalar); 'no' returns shape (N,).
    """
    return Triplet(margin, reduce).apply((anchor, positive, negative))[0]
