"""normalize: L2 normalization, ``x / (||x||_2 + eps)`` along an axis."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class NormalizeL2(FunctionNode):
    def __init__(self, eps, axis):
        self.eps = float(eps)
        self.axis = axis

    def forward(self, inputs):
        x, = inputs
        utils.check_float("normalize", "x", x)
        self.axes = utils.normalize_axis("normalize", self.axis, x.ndim)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        norm = xp.sqrt((x * x).sum(axis=self.axes, keepdims=True)) + self.eps
        return utils.force_array(x / norm),

    def backward(self, indexes, grad_outputs):
        from kusari.functions.math.sum import sum as fsum
        x, = self.get_retained_inputs()
        gy, = grad_outputs
        r = fsum(x * x, axis=self.axes, keepdims=True) ** 0.5
        y = x / (r + self.eps)
        # gx = gy / (r + eps) - y * sum(gy * y) / r; where r == 0 the whole slice of y is zero, so
        # the second term is 0: add 1 to those denominators (a constant) instead of dividing 0 by 0.
        zero = (r.array == 0).astype(r.dtype)
        return gy / (r + self.eps) - y * (fsum(gy * y, axis=self.axes, keepdims=True) / (r + zero)),


def normalize(x, eps=1e-5, axis=1):
    """L2-normalize x along ``axis`` (int or tuple): ``y = x / (sqrt(sum(x ** 2, axis)) + eps)``.

    x: any shape with the given axes; returns a Variable of x's shape.
    """
    return NormalizeL2(eps, axis).apply((x,))[0]
