"""Linear: the fully-connected layer ``y = x W^T + b``."""
from kusari import functions as F
from kusari import initializers, utils
from kusari.link import Link
from kusari.variable import Parameter


class Linear(Link):
    """Fully-connected layer.

    Parameters
    ----------
    in_size : int or None
        Input features; None defers W's creation to the first call (``prod(x.shape[n_batch_axes:])``).
        ``Linear(out_size)`` is short for ``Linear(None, out_size)``.
    out_size : int
    nobias : bool
    initialW : initializer, array or None (LeCunNormal)
        W has shape (out_size, in_size).
    initial_bias : initializer, array, scalar or None (0)
        b has shape (out_size,).
    """

    @classmethod
    def from_params(cls, W, b=None, nobias=False):
        """A Linear holding copies of ``W`` (out_size, in_size) and ``b`` (out_size,) (arrays or Variables)."""
        W = getattr(W, "array", W)
        b = getattr(b, "array", b)
        out_size, in_size = W.shape
        return cls(in_size, out_size, nobias or b is None, initialW=W, initial_bias=b)

    def __init__(self, in_size, out_size=None, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        if out_size is None:
            in_size, out_size = None, in_size
        self.in_size = in_size
        self.out_size = out_size
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias), out_size)

    def _initialize_params(self, in_size):
        self.W.initialize((self.out_size, in_size))

    def forward(self, x, n_batch_axes=1):
        """x: (*batch, ...) with ``n_batch_axes`` batch axes -> (*batch, out_size)."""
        if self.W.array is None:
            self._initialize_params(utils.size_of_shape(x.shape[n_batch_axes:]))
        return F.linear(x, self.W, self.b, n_batch_axes=n_batch_axes)
