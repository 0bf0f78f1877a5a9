"""GeneralReadout: a parameter-free sum, max or sum-and-max over the nodes."""
from collections.abc import Callable

from kusari import functions as F
from kusari.link import Link

_MODES = ("sum", "max", "summax")


class GeneralReadout(Link):
    """Readout without parameters (a Link for uniformity with the other readouts).

    Parameters
    ----------
    mode : {'sum', 'max', 'summax'}
        'summax' concatenates the sum and the max.
    activation : callable or None
        Applied to the node features first.
    """

    def __init__(self, mode: str = "sum", activation: Callable | None = None, **kwargs):
        super().__init__()
        if mode not in _MODES:
            raise ValueError(f"GeneralReadout: mode must be one of {_MODES}, got {mode!r}")
        self.mode = mode
        self.activation = activation

    def forward(self, h, axis: int = 1, **kwargs):
        """Reduce h over ``axis``.

        Parameters
        ----------
        h : Variable or array, shape (minibatch, node, ch)
        axis : int
            The node axis.

        Returns
        -------
        Variable, shape (minibatch, ch) (``2 * ch`` for 'summax', concatenated on ``axis``)
        """
        if self.activation is not None:
            h = self.activation(h)
        if self.mode == "sum":
            return F.sum(h, axis=axis)
        if self.mode == "max":
            return F.max(h, axis=axis)
        return F.concat((F.sum(h, axis=axis), F.max(h, axis=axis)), axis=axis)
