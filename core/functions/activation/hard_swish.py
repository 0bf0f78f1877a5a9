"""hard_swish: the piecewise-polynomial swish x * relu6(x + 3) / 6 of MobileNetV3."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class HardSwish(FunctionNode):
    def forward(self, inputs):
        x, = inputs
        utils.check_float("hard_swish", "x", x)
        xp = backend.get_array_module(x)
        self.retain_inputs((0,))
        return utils.force_array(x * (xp.clip(x + 3, 0, 6) / 6), x.dtype),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        xa = x.array
        # The slope is 0 below -3, (2x + 3) / 6 in between and 1 above 3 (PyTorch's choice at the
        # kinks); the masks are constants, so the middle piece stays differentiable (slope 1/3).
        middle = utils.force_array(((xa >= -3) & (xa <= 3)).astype(xa.dtype))
        above = utils.force_array((xa > 3).astype(xa.dtype))
        return grad_outputs[0] * ((x * (1.0 / 3.0) + 0.5) * middle + above),


def hard_swish(x):
    """Hard swish ``x * relu6(x + 3) / 6`` (Howard et al., 2019), as PyTorch's ``hardswish``.

    Parameters
    ----------
    x : float array or Variable, any shape

    Returns
    -------
    Variable of x's shape and dtype.
    """
    return HardSwish().apply((x,))[0]
