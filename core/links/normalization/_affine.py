"""Shared part of GroupNormalization and LayerNormalization: gamma and beta of the channel size, lazily."""
import copy

from kusari import initializers
from kusari.link import Link
from kusari.variable import Parameter


def _initializer(value, dtype):
    """``value`` (a scalar, an array or an Initializer) as an Initializer of ``dtype`` when that is not
    None (a copy: the caller's initializer is left as it was)."""
    initializer = initializers._get_initializer(value)
    if dtype is not None and isinstance(initializer, initializers.Initializer):
        initializer = copy.copy(initializer)
        initializer.dtype = dtype
    return initializer


class AffineNormalization(Link):
    """A link with ``gamma`` (default 1) and ``beta`` (default 0) of shape (size,), created at the first call when size is None.

    ``dtype`` (None: the initializers' dtype, else ``config.dtype`` when the parameters are made)
    overrides the initializers' dtype.
    """

    def __init__(self, size, initial_gamma, initial_beta, dtype=None):
        super().__init__()
        with self.init_scope():
            self.gamma = Parameter(_initializer(1 if initial_gamma is None else initial_gamma, dtype))
            self.beta = Parameter(_initializer(0 if initial_beta is None else initial_beta, dtype))
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
