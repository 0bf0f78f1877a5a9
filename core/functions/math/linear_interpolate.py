"""linear_interpolate: elementwise p * x + (1 - p) * y."""
from kusari import utils
from kusari.function_node import FunctionNode


class LinearInterpolate(FunctionNode):
    def forward(self, inputs):
        p, x, y = inputs
        for name, a in zip("pxy", inputs):
            utils.check_float("linear_interpolate", name, a)
        utils.check_same_dtype("linear_interpolate", p=p, x=x, y=y)
        utils.check_same_shape("linear_interpolate", p=p, x=x, y=y)
        self.retain_inputs((0, 1, 2))
        return utils.force_array(p * (x - y) + y),

    def backward(self, indexes, grad_outputs):
        p, x, y = self.get_retained_inputs()
        g = grad_outputs[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(g * (x - y))
            elif i == 1:
                ret.append(g * p)
            else:
                ret.append(g * (1.0 - p))
        return tuple(ret)


def linear_interpolate(p, x, y):
    """Elementwise ``p * x + (1 - p) * y``; ``p``, ``x``, ``y``: float arrays of one shape and dtype."""
    return LinearInterpolate().apply((p, x, y))[0]
