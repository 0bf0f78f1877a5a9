"""Bilinear: ``y_k = e1^T W_k e2 + V1_k . e1 + V2_k . e2 + b_k``."""
from kusari import functions as F
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class Bilinear(Link):
    """Bilinear layer: e1 (N, left_size), e2 (N, right_size) -> (N, out_size).

    W: (left_size, right_size, out_size), initialized by ``initialW`` (LeCunNormal);
    V1: (left_size, out_size), V2: (right_size, out_size), b: (out_size,), from
    ``initial_bias = (V1_init, V2_init, b_init)`` (default LeCunNormal, LeCunNormal, 0).
    With ``nobias`` only W is used.
    """

    def __init__(self, left_size, right_size, out_size, nobias=False, initialW=None,
                 initial_bias=None):
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW),
                               (left_size, right_size, out_size))
            if not nobias:
                if initial_bias is None:
                    initial_bias = (None, None, 0)
                elif len(initial_bias) != 3:
                    raise ValueError("Bilinear: initial_bias must be a tuple (V1, V2, b), got "
                                     f"{len(initial_bias)} items")
                v1, v2, b = (initializers._get_initializer(i) for i in initial_bias)
                self.V1 = Parameter(v1, (left_size, out_size))
                self.V2 = Parameter(v2, (right_size, out_size))
                self.b = Parameter(b, out_size)

    def forward(self, e1, e2):
        """e1: (N, left_size), e2: (N, right_size) -> (N, out_size)."""
        if self.nobias:
            return F.bilinear(e1, e2, self.W)
        return F.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)
