"""hinge: one-vs-rest hinge loss (L1 or squared L2) for multi-class classification."""
from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.loss._common import check_label_range, check_labels, check_reduce


class Hinge(FunctionNode):
    def __init__(self, norm, reduce):
        if norm not in ("L1", "L2"):
            raise ValueError(f"hinge: norm must be 'L1' or 'L2', got {norm!r}")
        check_reduce("hinge", reduce, ("mean", "no"))
        self.norm = norm
        self.reduce = reduce

    def forward(self, inputs):
        x, t = inputs
        utils.check_float("hinge", "x", x)
        check_labels("hinge", "t", t)
        utils.check_ndim("hinge", "x", x, 2)
        utils.check_ndim("hinge", "t", t, 1)
        if t.shape[0] != x.shape[0]:
            raise ValueError(f"hinge: t.shape={t.shape} does not match x.shape[0]={x.shape[0]} "
                             f"(x.shape={x.shape})")
        check_label_range("hinge", "t", t, x.shape[1])
        xp = backend.get_array_module(x)
        # sign is -1 at the true class and +1 elsewhere; the margin term is 1 + sign * x.
        sign = xp.ones_like(x)
        rows = xp.arange(len(t))
        sign[rows, t] = -1
        margin = sign * x + 1
        active = (margin > 0).astype(x.dtype)
        self._active = active
        self._signed = sign * active
        loss = margin * active
        if self.norm == "L2":
            self.retain_inputs((0,))
            loss = loss * loss
        if self.reduce == "mean":
            loss = loss.sum() * (1.0 / max(len(x), 1))
        return utils.force_array(loss),

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        if self.reduce == "mean":
            gy = gy * (1.0 / max(self.inputs[0].shape[0], 1))
        if self.norm == "L1":
            gx = gy * self._signed
        else:
            x, = self.get_retained_inputs()
            # d/dx (1 + sign * x)**2 on the active set is 2 * (x * active + sign * active).
            gx = gy * (x * self._active + self._signed) * 2.0
        return tuple(gx if i == 0 else None for i in indexes)


def hinge(x, t, norm="L1", reduce="mean"):
    """Hinge loss for one-of-K classification.

    The elementwise loss is max(0, 1 - d * x[n, k]) ** p where d = 1 for the true class
    k = t[n] and -1 otherwise, p = 1 ('L1') or 2 ('L2').

    Parameters
    ----------
    x : float array of shape (N, K)
        Class scores.
    t : signed integer array of shape (N,)
        True classes in [0, K).
    norm : {'L1', 'L2'}
    reduce : {'mean', 'no'}
        'mean' sums the loss and divides by N (a scalar); 'no' returns shape (N, K).
    """
    return Hinge(norm, reduce).apply((x, t))[0]
