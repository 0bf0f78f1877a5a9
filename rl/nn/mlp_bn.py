"""MLPBN: PFRL's fully-connected network with batch normalization (DDPG's critic)."""
import itertools
from collections.abc import Callable, Sequence

import kusari
import kusari.functions as F
import kusari.initializers as I
import kusari.links as L


class LinearBN(kusari.Chain):
    """``BatchNormalization(Linear(x))``; parameters ``/linear/{W,b}``, ``/bn/{gamma,beta}``.

    Parameters
    ----------
    in_size, out_size : int
    """

    def __init__(self, in_size: int, out_size: int):
        super().__init__()
        with self.init_scope():
            self.linear = L.Linear(in_size, out_size)
            self.bn = L.BatchNormalization(out_size)

    def forward(self, x) -> kusari.Variable:
        """(batch_size, in_size) -> (batch_size, out_size)."""
        return self.bn(self.linear(x))


class MLPBN(kusari.Chain):
    """MLP whose hidden layers are ``LinearBN``, with optional batch norm on input and output.

    Parameters
    ----------
    in_size, out_size : int
    hidden_sizes : sequence of int
    normalize_input : bool, batch-normalize the input (``input_bn``)
    normalize_output : bool, batch-normalize the output (``output_bn``)
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's LeCun-normal initial weights
    """

    def __init__(self, in_size: int, out_size: int, hidden_sizes: Sequence[int],
                 normalize_input: bool = True, normalize_output: bool = False,
                 nonlinearity: Callable = F.relu, last_wscale: float = 1):
        super().__init__()
        self.in_size = in_size
        self.out_size = out_size
        self.hidden_sizes = tuple(hidden_sizes)
        self.normalize_input = normalize_input
        self.normalize_output = normalize_output
        self.nonlinearity = nonlinearity
        sizes = (in_size,) + self.hidden_sizes
        with self.init_scope():
            if normalize_input:
                self.input_bn = L.BatchNormalization(in_size)
            if self.hidden_sizes:
                self.hidden_layers = kusari.ChainList(
                    *(LinearBN(i, o) for i, o in itertools.pairwise(sizes)))
            self.output = L.Linear(sizes[-1], out_size,
                                   initialW=I.LeCunNormal(scale=last_wscale), initial_bias=0)
            if normalize_output:
                self.output_bn = L.BatchNormalization(out_size)

    def forward(self, x) -> kusari.Variable:
        """(batch_size, in_size) -> (batch_size, out_size); batch statistics in training mode."""
        h = self.input_bn(x) if self.normalize_input else x
        for layer in self.hidden_layers if self.hidden_sizes else ():
            h = self.nonlinearity(layer(h))
        h = self.output(h)
        return self.output_bn(h) if self.normalize_output else h
