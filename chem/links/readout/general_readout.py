"""GeneralReadout: a parameter-free sum, max or sum-and-max over the nodes."""
from collections.abc import Callable

from kusari import functions as F
from kusari.chem.links.readout._mask import exclude_padding, mask_padding_nodes
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

    def forward(self, h, axis: int = 1, is_real_node=None, **kwargs):
        """Reduce h over ``axis``.

        Parameters
        ----------
        h : Variable or array, shape (minibatch, node, ch)
        axis : int
            The node axis.
        is_real_node : array, Variable or None, shape (minibatch, node)
            1 for real nodes, 0 for padding, which the sum and the max leave out (only with
            ``axis=1``); None reduces over every node.

        Returns
        -------
        Variable, shape (minibatch, ch) (``2 * ch`` for 'summax', concatenated on ``axis``)
        """
        if self.activation is not None:
            h = self.activation(h)
        if is_real_node is not None and axis != 1:
            raise ValueError(f"GeneralReadout: is_real_node masks the node axis 1, got axis={axis}")
        h_max = exclude_padding(h, is_real_node, node_axis=1)
        h = mask_padding_nodes(h, is_real_node)
        if self.mode == "sum":
            return F.sum(h, axis=axis)
        if self.mode == "max":
            return F.max(h_max, axis=axis)
        return F.concat((F.sum(h, axis=axis), F.max(h_max, axis=axis)), axis=axis)
