"""MLP: PFRL's fully-connected network (Chainer-default hidden layers, scaled LeCun output layer)."""
import itertools
from collections.abc import Callable, Sequence

import kusari
import kusari.functions as F
import kusari.initializers as I
import kusari.links as L


class MLP(kusari.Chain):
    """Fully-connected layers ``in_size -> hidden_sizes... -> out_size``, ``nonlinearity`` between.

    Hidden layers use Chainer's default initialization (LeCun normal weights, zero biases,
    PFRL's ``init_chainer_default``); the output layer draws its weights from LeCun normal
    scaled by ``last_wscale`` and starts with zero biases. Draws come from NumPy's global
    generator, so seeding it repeats a network. Parameters are named ``/hidden_layers/<i>/W``,
    ``/hidden_layers/<i>/b``, ``/output/W``, ``/output/b`` (PFRL's paths, Chainer's W/b).

    Parameters
    ----------
    in_size, out_size : int
    hidden_sizes : sequence of int (may be empty: then a single linear layer)
    nonlinearity : callable applied after each hidden layer (not after the output layer)
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, in_size: int, out_size: int, hidden_sizes: Sequence[int],
                 nonlinearity: Callable = F.relu, last_wscale: float = 1):
        super().__init__()
        self.in_size = in_size
        self.out_size = out_size
        self.hidden_sizes = tuple(hidden_sizes)
        self.nonlinearity = nonlinearity
        sizes = (in_size,) + self.hidden_sizes
        with self.init_scope():
            if self.hidden_sizes:
                self.hidden_layers = kusari.ChainList(
                    *(L.Linear(i, o) for i, o in itertools.pairwise(sizes)))
            self.output = L.Linear(sizes[-1], out_size,
                                   initialW=I.LeCunNormal(scale=last_wscale), initial_bias=0)

    def forward(self, x) -> kusari.Variable:
        """Output of shape (batch_size, out_size) for ``x`` of shape (batch_size, in_size)."""
        h = x
        for layer in self.hidden_layers if self.hidden_sizes else ():
            h = self.nonlinearity(layer(h))
        return self.output(h)
