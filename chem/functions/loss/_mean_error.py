"""The shared core of mean_squared_error and mean_absolute_error: a mean over all elements of a
pointwise error of x0 - x1, where ignore_nan counts NaN differences as 0 (still in the divisor)."""
import kusari
import kusari.functions as F
from kusari import backend


class MeanErrorBase(kusari.FunctionNode):
    """``mean(error(x0 - x1))`` over all elements; subclasses give ``_error_sum`` and ``_grad``."""

    fname = ""

    def __init__(self, ignore_nan: bool = False):
        self.ignore_nan = ignore_nan

    def _error_sum(self, diff):
        """Sum of the pointwise error of the flat array ``diff``."""
        raise NotImplementedError

    def _grad(self, diff):
        """d error / d diff, as a Variable built from differentiable ops."""
        raise NotImplementedError

    def forward(self, inputs):
        x0, x1 = inputs
        if x0.dtype.kind != "f" or x0.dtype != x1.dtype:
            raise TypeError(f"{self.fname}: x0 and x1 must share one float dtype, got "
                            f"x0.dtype={x0.dtype}, x1.dtype={x1.dtype}")
        if x0.shape != x1.shape:
            raise ValueError(f"{self.fname}: x0 and x1 must have the same shape, got "
                             f"x0.shape={x0.shape}, x1.shape={x1.shape}")
        self.retain_inputs((0, 1))
        xp = backend.get_array_module(x0)
        diff = (x0 - x1).ravel()
        if self.ignore_nan:
            diff[xp.isnan(diff)] = 0
        return xp.asarray(self._error_sum(diff) / diff.size, dtype=diff.dtype),

    def backward(self, target_input_indexes, grad_outputs):
        x0, x1 = self.get_retained_inputs()
        diff = x0 - x1
        if self.ignore_nan:
            xp = backend.get_array_module(diff)
            diff = F.where(xp.isnan(diff.array), xp.zeros_like(diff.array), diff)
        gy = F.broadcast_to(grad_outputs[0], diff.shape)
        gx0 = gy * self._grad(diff) * (1.0 / diff.size)
        return gx0, -gx0
