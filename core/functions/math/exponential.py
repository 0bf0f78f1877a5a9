"""exp, expm1, log, log1p, log2, log10: exponentials and logarithms."""
import math

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.functions.math._elementwise import UnaryOp


class Exp(FunctionNode):
    def forward(self, inputs):
        x = inputs[0]
        utils.check_float("exp", "x", x)
        self.retain_outputs((0,))
        return utils.force_array(backend.get_array_module(x).exp(x)),

    def backward(self, indexes, grad_outputs):
        y, = self.get_retained_outputs()
        return y * grad_outputs[0],


class Expm1(UnaryOp):
    fname = "expm1"
    retain = ("y",)

    def compute(self, xp, x):
        return xp.expm1(x)

    def grad(self, x, y, gy):
        return gy * (y + 1.0)


class Log1p(UnaryOp):
    fname = "log1p"
    retain = ("x",)

    def compute(self, xp, x):
        return xp.log1p(x)

    def grad(self, x, y, gy):
        return gy / (x + 1.0)


class Log(FunctionNode):
    _fname = "log"
    _scale = 1.0

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        self.retain_inputs((0,))
        xp = backend.get_array_module(x)
        return utils.force_array(getattr(xp, self._fname)(x)),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        gx = grad_outputs[0] / x
        return (gx * self._scale if self._scale != 1.0 else gx),


class Log2(Log):
    _fname = "log2"
    _scale = 1.0 / math.log(2.0)


class Log10(Log):
    _fname = "log10"
    _scale = 1.0 / math.log(10.0)


def exp(x):
    """Elementwise e**x."""
    return Exp().apply((x,))[0]


def expm1(x):
    """Elementwise ``exp(x) - 1``, accurate for small ``x``; returns the shape of ``x``."""
    return Expm1().apply((x,))[0]


def log1p(x):
    """Elementwise ``log(1 + x)``, accurate for small ``x``; ``x`` > -1, returns the shape of ``x``."""
    return Log1p().apply((x,))[0]


def log(x):
    """Elementwise natural logarithm."""
    return Log().apply((x,))[0]


def log2(x):
    """Elementwise base-2 logarithm."""
    return Log2().apply((x,))[0]


def log10(x):
    """Elementwise base-10 logarithm."""
    return Log10().apply((x,))[0]
