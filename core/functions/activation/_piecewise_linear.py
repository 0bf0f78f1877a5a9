"""PiecewiseLinear: shared base of elementwise activations whose derivative is piecewise constant."""
import numpy

from kusari import backend, utils
from kusari.function_node import FunctionNode


class PiecewiseLinear(FunctionNode):
    """``y = f(x)`` elementwise, where ``f'`` takes finitely many constant values.

    Subclasses set ``_fname`` and implement ``_value(xp, x)`` and ``_slope(xp, a)`` on arrays
    (``_slope`` must return a new array of ``a``'s shape and dtype: backward scales it in place).
    ``a`` is the input ``x``, or the output ``y`` when ``_slope_from_output`` is true: then the op
    retains ``y`` instead of ``x`` (which ``y``'s consumer usually retains anyway), so
    conv -> BN -> ReLU keeps two activations alive for backward, not three.
    The backward ``gy * slope`` treats the slope as a constant: its derivative with respect to
    ``x`` is zero wherever it exists, so double backprop is exact away from the kinks.
    """

    _fname = ""
    _slope_from_output = False
    _gpu_grad_kernel = None   # optional: an elementwise kernel ``(a, gy) -> gx`` for CuPy arrays

    def forward(self, inputs):
        x = inputs[0]
        utils.check_float(self._fname, "x", x)
        if self._slope_from_output:
            self.retain_outputs((0,))
        else:
            self.retain_inputs((0,))
        return utils.force_array(self._value(backend.get_array_module(x), x)),

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * self._slope_array(self._retained_array()),

    def backward_arrays(self, indexes, grad_outputs):
        a = self._retained_array()
        if self._gpu_grad_kernel is not None and type(a) is not numpy.ndarray:
            return self._gpu_grad_kernel(a, grad_outputs[0]),
        gx = self._slope_array(a)
        gx *= grad_outputs[0]   # slope * gy: the same bits as backward's gy * slope
        return gx,

    def _retained_array(self):
        return self._retained_output_data[0] if self._slope_from_output else self.inputs[0].data

    def _slope_array(self, x):
        return utils.force_array(self._slope(backend.get_array_module(x), x))

    def _value(self, xp, x):
        raise NotImplementedError

    def _slope(self, xp, a):
        raise NotImplementedError
