"""make_shift: a decorator that turns ``func(trainer) -> value`` into an extension setting an optimizer attribute."""
from typing import Callable

from kusari.training import Extension


def make_shift(attr: str, optimizer=None) -> Callable:
    """Make a function ``func(trainer)`` into an extension that sets ``optimizer.<attr> = func(trainer)``.

    The extension runs at every trigger (each iteration by default) and once when training starts,
    so the attribute holds the function's value from the first update on.

    Parameters
    ----------
    attr : str
        The attribute of the optimizer to set (``'lr'``, ``'momentum'``, ...).
    optimizer : kusari.Optimizer, optional
        The optimizer to adjust; the updater's ``'main'`` optimizer when None.

    Examples
    --------
    >>> @make_shift('lr')
    ... def warmup(trainer):
    ...     rate = min(trainer.updater.iteration / 1000, 1.0)
    ...     return 0.01 * (0.1 + 0.9 * rate)
    >>> # trainer.extend(warmup)
    """
    def decorator(func: Callable) -> Callable:
        def extension(trainer):
            target = optimizer or trainer.updater.get_optimizer("main")
            setattr(target, attr, func(trainer))

        extension.default_name = func.__name__
        extension.priority = Extension.priority
        extension.initialize = extension
        return extension

    return decorator
