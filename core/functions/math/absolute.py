"""absolute: elementwise absolute value (``abs(x)`` as a function)."""
from kusari import utils
from kusari.functions.math import basic_math


class Absolute(basic_math.Absolute):
    def forward(self, inputs):
        utils.check_float("absolute", "x", inputs[0])
        return super().forward(inputs)


def absolute(self):
    """Elementwise ``|x|`` of the float array ``self`` (Chainer's argument name); same shape."""
    return Absolute().apply((self,))[0]
