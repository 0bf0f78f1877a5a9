"""contrastive: contrastive loss of sample pairs labelled similar (1) or dissimilar (0)."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_labels, check_margin, check_reduce


class Contrastive(FunctionNode):
    def __init__(self, margin, reduce):
        self.margin = check_margin("contrastive", margin)
        check_reduce("contrastive", reduce, ("mean", "no"))
        self.reduce = reduce

    def forward(self, inputs):
        x0, x1, y = inputs
        utils.check_float("contrastive", "x0", x0)
        utils.check_float("contrastive", "x1", x1)
        utils.check_same_dtype("contrastive", x0=x0, x1=x1)
        utils.check_ndim("contrastive", "x0", x0, 2)
        utils.check_same_shape("contrastive", x0=x0, x1=x1)
        check_labels("contrastive", "y", y)
        if y.shape != x0.shape[:1]:
            raise ValueError(f"contrastive: y.shape={y.shape} does not match x0.shape[0]={x0.shape[0]} "
                             f"(x0.shape={x0.shape})")
        if bool(((y != 0) & (y != 1)).any()):
            raise ValueError("contrastive: y values must be 0 (dissimilar) or 1 (similar)")
        xp = backend.get_array_module(x0)
        diff = x0 - x1
        dist_sq = (diff * diff).sum(axis=1)
        dist = xp.sqrt(dist_sq)
        similar = y.astype(x0.dtype)
        # Dissimilar pairs closer than the margin; pairs at distance 0 get the subgradient 0.
        pushed = (1 - similar) * (dist < self.margin) * (dist_sq > 0)
        self._similar = similar
        self._pushed = pushed.astype(x0.dtype)
        self.retain_inputs((0, 1))
        gap = xp.maximum(self.margin - dist, 0)
        loss = (similar * dist_sq + (1 - similar) * gap * gap) * 0.5
        if self.reduce == "mean":
            loss = loss.sum() * (1.0 / max(len(x0), 1))
        return utils.force_array(loss),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.array.reshape import reshape
        from kusari.functions.math.sum import sum as _sum
        x0, x1 = self.get_retained_inputs()
        gy, = grad_outputs
        n = x0.shape[0]
        gy = gy * (1.0 / max(n, 1)) if self.reduce == "mean" else reshape(gy, (n, 1))
        diff = x0 - x1
        # Where no pair is pushed the distance is replaced by 1, so no 0 * inf appears.
        safe_sq = _sum(diff * diff, axis=1) + (1 - self._pushed)
        scale = (1 - self.margin / safe_sq ** 0.5) * self._pushed + self._similar
        gx0 = gy * diff * reshape(scale, (n, 1))
        return tuple(gx0 if i == 0 else -gx0 if i == 1 else None for i in indexes)


def contrastive(x0, x1, y, margin=1, reduce="mean"):
    """Contrastive loss (y d^2 + (1 - y) max(margin - d, 0)^2) / 2 with d = |x0 - x1|.

    Parameters
    ----------
    x0, x1 : float arrays of one shape (N, K) and dtype
    y : signed integer array of shape (N,)
        1 for similar pairs, 0 for dissimilar ones.
    margin : float
        Positive margin for dissimilar pairs.
    reduce : {'mean', 'no'}
        'mean' averages over the N pairs (a scalar); 'no' returns shape (N,).
    """
    return Contrastive(margin, reduce).apply((x0, x1, y))[0]
