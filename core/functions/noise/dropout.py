"""dropout: zero random elements with probability ratio and scale the rest by 1 / (1 - ratio)."""
from kusari import backend, utils
from kusari.configuration import config
from kusari.function_node import FunctionNode
from kusari.variable import as_array, as_variable


def check_ratio(fname, ratio):
    if not 0.0 <= ratio < 1.0:
        raise ValueError(f"{fname}: ratio must be in [0, 1), got ratio={ratio}")


class Dropout(FunctionNode):
    def __init__(self, ratio, mask):
        self.ratio = ratio
        self.mask = mask

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("dropout", "x", x)
        xp = backend.get_array_module(x)
        if self.mask is None:
            keep = xp.random.random_sample(x.shape) >= self.ratio
            self.mask = keep.astype(x.dtype)
            self.mask *= x.dtype.type(1.0 / (1.0 - self.ratio))
        else:
            utils.check_same_dtype("dropout", x=x, mask=self.mask)
            utils.check_same_shape("dropout", x=x, mask=self.mask)
        return utils.force_array(x * self.mask),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self.mask,


def dropout(x, ratio=.5, *, mask=None, return_mask=False):
    """Drop each element of ``x`` with probability ``ratio``, scaling kept ones by ``1 / (1 - ratio)``.

    x: float array of any shape. mask: optional array shaped and typed like ``x`` to multiply
    ``x`` by instead of a random one (it already includes the scale; ``ratio`` is then unused).
    Outside training (``config.train`` False) ``x`` is returned unchanged (as a Variable).
    Returns the output Variable, or ``(y, mask)`` with ``return_mask=True`` (``mask`` is None
    outside training).
    """
    check_ratio("dropout", ratio)
    if not config.train:
        y, mask = as_variable(x), None
    else:
        func = Dropout(float(ratio), None if mask is None else as_array(mask))
        y = func.apply((x,))[0]
        mask = func.mask
    return (y, mask) if return_mask else y
