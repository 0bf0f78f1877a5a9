"""SimplifiedDropconnect: a fully-connected layer whose weights are dropped at random (Wan et al., 2013)."""
from kusari import functions as F
from kusari import initializers, utils
from kusari.link import Link
from kusari.variable import Parameter


class SimplifiedDropconnect(Link):
    """Linear layer with DropConnect: x (N, in_size) -> (N, out_size).

    W: (out_size, in_size) (``in_size=None`` defers it), b: (out_size,). Each weight is dropped
    with probability ``ratio`` in training (``train=True``) and kept ones are scaled by
    ``1 / (1 - ratio)``.
    """

    def __init__(self, in_size, out_size, ratio=.5, nobias=False, initialW=None, initial_bias=None):
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self.W.initialize((out_size, in_size))
            if nobias:
                self.b = None
            else:
                bias = 0 if initial_bias is None else initial_bias
                self.b = Parameter(initializers._get_initializer(bias), out_size)

    def forward(self, x, train=True, mask=None, use_batchwise_mask=True):
        """x: (N, ...) -> (N, out_size); ``mask`` fixes the kept weights (see ``F.simplified_dropconnect``)."""
        if self.W.array is None:
            self.W.initialize((self.out_size, utils.size_of_shape(x.shape[1:])))
        return F.simplified_dropconnect(x, self.W, self.b, self.ratio, train, mask,
                                        use_batchwise_mask)
