"""GraphMLP: a stack of GraphLinear layers with an activation between them."""
from collections.abc import Callable, Sequence

import numpy
from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain, ChainList


class GraphMLP(Chain):
    """Per-node MLP: ``layers`` is a ChainList of GraphLinear, ``activation`` between them.

    Parameters
    ----------
    channels : list of int or numpy.ndarray
        Output size of each layer; the last entry is the output size.
    in_channels : int or None
        Input feature size (None: inferred on the first call).
    activation : callable
        Applied after every layer but the last.
    """

    def __init__(self, channels: Sequence[int], in_channels: int | None = None,
                 activation: Callable = F.relu):
        super().__init__()
        if not isinstance(channels, (list, numpy.ndarray)):
            raise TypeError(f"GraphMLP: channels must be a list or numpy.ndarray of int, "
                            f"got {type(channels).__name__} {channels!r}")
        sizes = [in_channels] + list(channels)
        with self.init_scope():
            self.layers = ChainList(*[GraphLinear(sizes[i], sizes[i + 1])
                                      for i in range(len(sizes) - 1)])
        self.activation = activation

    def forward(self, x):
        """x: (minibatch, node, in_channels) -> (minibatch, node, channels[-1])."""
        h = x
        for layer in self.layers[:-1]:
            h = self.activation(layer(h))
        return self.layers[-1](h)
