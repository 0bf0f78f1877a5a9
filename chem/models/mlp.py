"""MLP: a plain multilayer perceptron (the head of Chainer Chemistry's predictors)."""
from collections.abc import Callable

from kusari import functions as F
from kusari.link import Chain, ChainList
from kusari.links import Linear


class MLP(Chain):
    """``l_out(activation(layers[-1](... activation(layers[0](x)))))``, input size inferred.

    Parameters
    ----------
    out_dim : int
    hidden_dim : int
    n_layers : int
        Total number of Linear layers (``n_layers - 1`` hidden ones plus ``l_out``), > 0.
    activation : callable
    """

    def __init__(self, out_dim: int, hidden_dim: int = 16, n_layers: int = 2,
                 activation: Callable = F.relu):
        super().__init__()
        if n_layers <= 0:
            raise ValueError(f"MLP: n_layers must be a positive integer, got {n_layers}")
        with self.init_scope():
            self.layers = ChainList(*[Linear(None, hidden_dim) for _ in range(n_layers - 1)])
            self.l_out = Linear(None, out_dim)
        self.activation = activation

    def forward(self, x):
        """x: (minibatch, ...) -> (minibatch, out_dim) (trailing axes flattened by Linear)."""
        return self.l_out(self.hidden(x))

    def hidden(self, x):
        """The input of ``l_out``: x through the hidden layers and their activations.

        x: (minibatch, ...) -> (minibatch, hidden_dim), or x itself when ``n_layers == 1``.
        """
        h = x
        for layer in self.layers:
            h = self.activation(layer(h))
        return h
