"""GradientScaling: an update-rule hook multiplying a parameter's gradient by a constant (SSD trains biases
with twice the learning rate this way)."""
import numbers


class GradientScaling:
    """Multiply ``param.grad`` by ``rate`` in place before the update.

    Register it on one parameter, ``param.update_rule.add_hook(GradientScaling(2))``, or on an
    optimizer (``optimizer.add_hook``: every parameter). Parameters without a gradient are left alone.

    Parameters
    ----------
    rate : float
        The factor.
    """

    name = "GradientScaling"
    call_for_each_param = True

    def __init__(self, rate: float):
        if isinstance(rate, bool) or not isinstance(rate, numbers.Real):
            raise TypeError(f"GradientScaling: rate must be a real number, got {type(rate).__name__}")
        self.rate = rate

    def __call__(self, rule, param):
        grad = param.grad
        if grad is not None:
            grad *= self.rate
