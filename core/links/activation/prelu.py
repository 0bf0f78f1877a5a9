"""PReLU: the parametric ReLU with learned negative slopes (He et al., 2015)."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class PReLU(Link):
    """``y = x`` for x >= 0, ``W * x`` otherwise; W of ``shape`` (initialized to ``init``) broadcast from axis 1."""

    def __init__(self, shape=(), init=0.25):
        super().__init__()
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(init), shape)

    def forward(self, x):
        """x: (N, *shape, ...) -> Variable of x's shape."""
        return F.prelu(x, self.W)
