"""Shared part of GroupNormalization and LayerNormalization: gamma and beta of the channel size, lazily."""
from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


class AffineNormalization(Link):
    """A link with ``gamma`` (default 1) and ``beta`` (default 0) of shape (size,), created at the first call when size is None."""

    def __init__(self, size, initial_gamma, initial_beta):
        super().__init__()
        with self.init_scope():
            self.gamma = Parameter(initializers._get_initializer(
                1 if initial_gamma is None else initial_gamma))
            self.beta = Parameter(initializers._get_initializer(
                0 if initial_beta is None else initial_beta))
        if size is not None:
            self._initialize_params(size)

    def _initialize_params(self, size):
        self.gamma.initialize(size)
        self.beta.initialize(size)

    def _lazy_init(self, x):
        if self.gamma.array is None:
            if x.ndim < 2:
                raise ValueError(f"{type(self).__name__}: x must have a channel axis 1, "
                                 f"got x.shape={tuple(x.shape)}")
            self._initialize_params(x.shape[1])
