"""Swish: ``x * sigmoid(beta * x)`` with a learned beta (Ramachandran et al., 2017)."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class Swish(Link):
    """Swish activation; ``beta`` has ``beta_shape`` (None: x.shape[1:] at the first call), initialized to ``beta_init``."""

    def __init__(self, beta_shape, beta_init=1.0):
        super().__init__()
        with self.init_scope():
            self.beta = Parameter(initializers._get_initializer(beta_init))
        if beta_shape is not None:
            self.beta.initialize(beta_shape)

    def forward(self, x):
        """x: (N, *beta_shape, ...) -> Variable of x's shape."""
        if self.beta.array is None:
            self.beta.initialize(x.shape[1:])
        return F.swish(x, self.beta)
