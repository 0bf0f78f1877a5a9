"""huber_loss: squared error near zero, absolute error beyond ``delta``."""
from kusari.functions.loss._common import PointwiseLoss


class HuberLoss(PointwiseLoss):
    fname = "huber_loss"
    argnames = ("x", "t")
    reductions = ("sum_along_second_axis", "no")

    def __init__(self, delta, reduce):
        super().__init__(reduce)
        delta = float(delta)
        if not delta > 0:
            raise ValueError(f"huber_loss: delta must be positive, got {delta}")
        self.delta = delta

    def _loss(self, xp, x, t):
        diff = x - t
        ad = abs(diff)
        delta = self.delta
        return xp.where(ad <= delta, diff * diff * 0.5, (ad - 0.5 * delta) * delta)

    def _grads(self, indexes, inputs, gy):
        x, t = inputs
        xp = x.xp
        d = x.array - t.array
        inside = (abs(d) <= self.delta).astype(d.dtype)
        # clip(diff, -delta, delta) as diff * inside + constant: its derivative is the mask.
        gx = gy * ((x - t) * inside + xp.sign(d) * (1 - inside) * self.delta)
        return tuple(gx if i == 0 else -gx for i in indexes)


def huber_loss(x, t, delta, reduce="sum_along_second_axis"):
    """Huber loss of ``x - t``: a**2 / 2 where |a| <= delta, else delta * (|a| - delta / 2).

    Parameters
    ----------
    x, t : float arrays of one shape (N, K, ...) and dtype
    delta : float
        Positive threshold between the quadratic and the linear part.
    reduce : {'sum_along_second_axis', 'no'}
        'sum_along_second_axis' sums over axis 1, returning shape (N, ...); 'no' returns the
        elementwise loss of ``x``'s shape.
    """
    return HuberLoss(delta, reduce).apply((x, t))[0]
