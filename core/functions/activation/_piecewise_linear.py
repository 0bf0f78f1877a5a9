"""PiecewiseLinear: shared base of elementwise activations whose derivative is piecewise constant."""
from kusari import backend, utils
from kusari.function_node import FunctionNode


class PiecewiseLinear(FunctionNode):
    """``y = f(x)`` elementwise, where ``f'`` takes finitely many constant values.

    Subclasses set ``_fname`` and implement ``_value(xp, x)`` and ``_slope(xp, x)`` on arrays
    (``_slope`` must return a new array of ``x``'s shape and dtype: backward scales it in place).
    The backward ``gy * slope(x)`` treats the slope as a constant: its derivative with respect to
    ``x`` is zero wherever it exists, so double backprop is exact away from the kinks.
    """

    _fname = ""

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        self.retain_inputs((0,))
        return utils.force_array(self._value(backend.get_array_module(x), x)),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self._slope_array(self.get_retained_inputs()[0].array),

    def backward_arrays(self, indexes, grad_outputs):
        gx = self._slope_array(self.inputs[0].data)
        gx *= grad_outputs[0]   # slope * gy: the same bits as backward's gy * slope
        return gx,

    def _slope_array(self, x):
        return utils.force_array(self._slope(backend.get_array_module(x), x))

    def _value(self, xp, x):
        raise NotImplementedError

    def _slope(self, xp, x):
        raise NotImplementedError
