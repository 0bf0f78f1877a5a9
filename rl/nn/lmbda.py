"""Lambda: wraps a plain callable as a Link, so it can sit in a Sequential or a Branched."""
from collections.abc import Callable

import kusari


class Lambda(kusari.Link):
    """Link whose forward is ``lambd(x)``; it holds no parameters of its own.

    Parameters
    ----------
    lambd : callable
        Applied to the single input.
    """

    def __init__(self, lambd: Callable):
        super().__init__()
        if not callable(lambd):
            raise TypeError(f"Lambda: lambd must be callable, got {type(lambd).__name__}")
        self.lambd = lambd

    def forward(self, x):
        """``lambd(x)``."""
        return self.lambd(x)
