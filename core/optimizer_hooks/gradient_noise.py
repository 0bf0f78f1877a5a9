"""Annealed Gaussian gradient noise (Neelakantan et al., 2015)."""
import math

from kusari import backend
from kusari.optimizer_hooks._base import ParamHook, check_real


def exponential_decay_noise(xp, shape, dtype, hook, opt):
    """Gaussian noise with standard deviation ``sqrt(hook.eta / (1 + opt.t)**0.55)``.

    ``opt`` is the update rule (or optimizer) whose step counter ``t`` anneals the noise.
    Returns an array of ``shape`` and ``dtype``.
    """
    std = math.sqrt(hook.eta / math.pow(1 + opt.t, 0.55))
    return xp.random.normal(0, std, shape).astype(dtype, copy=False)


class GradientNoise(ParamHook):
    """Add ``noise_func(xp, shape, dtype, hook, rule)`` to each gradient.

    Parameters
    ----------
    eta : float
        Noise scale used by the default ``noise_func``.
    noise_func : callable
        Returns the noise array; defaults to :func:`exponential_decay_noise`.
    """

    name = "GradientNoise"

    def __init__(self, eta: float, noise_func=exponential_decay_noise):
        check_real("GradientNoise", "eta", eta)
        if not callable(noise_func):
            raise TypeError(f"GradientNoise: noise_func must be callable, got "
                            f"{type(noise_func).__name__}")
        self.eta = eta
        self.noise_func = noise_func

    def apply(self, rule, param):
        grad = param.grad
        xp = backend.get_array_module(grad)
        grad += self.noise_func(xp, grad.shape, grad.dtype, self, rule)
