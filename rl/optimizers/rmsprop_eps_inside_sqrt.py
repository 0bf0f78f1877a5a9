"""RMSprop with eps inside the square root (A3C's optimizer), and its eagerly initialized variant."""
from kusari import Link
from kusari.optimizers import RMSprop
from kusari.rl.utils.async_ import ensure_initialized_update_rule


class RMSpropEpsInsideSqrt(RMSprop):
    """RMSprop dividing by ``sqrt(ms + eps)`` instead of ``sqrt(ms) + eps`` (PFRL's name).

    ``ms = alpha * ms + (1 - alpha) * g**2; param -= lr * g / sqrt(ms + eps)``. It is kusari's
    ``RMSprop(eps_inside_sqrt=True)``; PFRL's ``momentum``, ``centered`` and ``weight_decay``
    options are not offered (weight decay is kusari's ``optimizer_hooks.WeightDecay``).

    Parameters
    ----------
    lr : float
        Learning rate.
    alpha : float
        Decay of the mean squared gradient ``ms``.
    eps : float
        Added to ``ms`` under the square root.
    """

    def __init__(self, lr: float = 1e-2, alpha: float = 0.99, eps: float = 1e-8):
        super().__init__(lr=lr, alpha=alpha, eps=eps, eps_inside_sqrt=True)


class SharedRMSpropEpsInsideSqrt(RMSpropEpsInsideSqrt):
    """RMSpropEpsInsideSqrt whose state ``ms`` exists from ``setup`` on, not from the first update.

    Asynchronous training (A3C) moves the state into shared memory before any worker updates:
    :func:`kusari.rl.utils.async_.share_states_as_shared_arrays`.
    """

    def setup(self, link: Link) -> "SharedRMSpropEpsInsideSqrt":
        """Attach to ``link`` (its parameters initialized) and allocate each parameter's ``ms``."""
        super().setup(link)
        for param in link.params():
            if param.array is None:
                raise ValueError(f"SharedRMSpropEpsInsideSqrt.setup: parameter {param.name} of "
                                 f"{type(link).__name__} is not initialized; its state cannot be "
                                 "allocated before its shape is known")
            ensure_initialized_update_rule(param)
        return self
