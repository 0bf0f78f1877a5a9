"""zoneout: keep each element of the previous state h with probability ratio, else take x."""
from kusari import backend, utils
from kusari.configuration import config
from kusari.function_node import FunctionNode
from kusari.variable import as_variable


class Zoneout(FunctionNode):
    def __init__(self, ratio):
        self.ratio = ratio

    def forward(self, inputs):
        h, x = inputs
        utils.check_float("zoneout", "h", h)
        utils.check_same_dtype("zoneout", h=h, x=x)
        utils.check_same_shape("zoneout", h=h, x=x)
        xp = backend.get_array_module(x)
        self.take_x = xp.random.random_sample(x.shape) >= self.ratio
        return utils.force_array(xp.where(self.take_x, x, h)),

    def backward(self, indexes, grad_outputs):
        gy = grad_outputs[0]
        flags = (~self.take_x, self.take_x)
        return tuple(gy * flags[i].astype(gy.dtype) for i in indexes)


def zoneout(h, x, ratio=.5):
    """Zoneout (Krueger et al., 2017): each element keeps ``h`` with probability ``ratio``.

    h: previous state; x: new state, of the same shape and dtype; ratio in [0, 1]. In training every element is
    ``h`` with probability ``ratio`` and ``x`` otherwise; outside training (``config.train``
    False) ``x`` is returned unchanged (as a Variable).
    """
    if not 0.0 <= ratio <= 1.0:   # 1 keeps h everywhere (nothing is scaled, unlike dropout)
        raise ValueError(f"zoneout: ratio must be in [0, 1], got ratio={ratio}")
    if not config.train:
        return as_variable(x)
    return Zoneout(float(ratio)).apply((h, x))[0]
