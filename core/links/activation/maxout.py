"""Maxout: the maximum over ``pool_size`` linear units per output (Goodfellow et al., 2013)."""
import numpy

from kusari import backend
from kusari import functions as F
from kusari.link import Chain
from kusari.links.connection.linear import Linear


class Maxout(Chain):
    """Maxout layer: x (N, in_size) -> (N, out_size), ``y_j = max_k (W_jk . x + b_jk)``.

    ``linear`` is a Linear(in_size, out_size * pool_size) whose rows ``j * pool_size + k`` hold
    unit (j, k). An array ``initialW`` has Chainer's shape (out_size, pool_size, in_size) and
    ``initial_bias`` (out_size, pool_size); initializers or scalars are also accepted.
    """

    def __init__(self, in_size, out_size, pool_size, initialW=None, initial_bias=0):
        super().__init__()
        in_size, out_size, pool_size = int(in_size), int(out_size), int(pool_size)
        n = out_size * pool_size
        if isinstance(initialW, numpy.ndarray) or backend.is_gpu_array(initialW):
            if initialW.shape != (out_size, pool_size, in_size):
                raise ValueError(f"Maxout: initialW must have shape (out_size, pool_size, in_size)="
                                 f"{(out_size, pool_size, in_size)}, got {initialW.shape}")
            initialW = initialW.reshape(n, in_size)
        if isinstance(initial_bias, numpy.ndarray) or backend.is_gpu_array(initial_bias):
            if initial_bias.shape != (out_size, pool_size):
                raise ValueError(f"Maxout: initial_bias must have shape {(out_size, pool_size)}, "
                                 f"got {initial_bias.shape}")
            initial_bias = initial_bias.reshape(n)
        self.out_size = out_size
        self.pool_size = pool_size
        with self.init_scope():
            self.linear = Linear(in_size, n, initialW=initialW, initial_bias=initial_bias,
                                 nobias=initial_bias is None)

    def forward(self, x):
        """x: (N, in_size) -> (N, out_size)."""
        return F.maxout(self.linear(x), self.pool_size)
