"""GroupNormalization: normalize each sample over groups of channels (Wu & He, 2018)."""
import numpy

from kusari import configuration
from kusari import functions as F
from kusari.links.normalization._affine import AffineNormalization


class GroupNormalization(AffineNormalization):
    """Group normalization: (N, C, ...) -> same shape, with gamma and beta of shape (C,).

    ``size=None`` takes C from the first input.
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None):
        # gamma and beta take config.dtype when the link is made (float32 under mixed16), as in Chainer
        super().__init__(size, initial_gamma, initial_beta,
                         dtype=configuration.get_dtype(None, map_mixed16=numpy.float32))
        self.groups = groups
        self.eps = eps

    def forward(self, x):
        """x: (N, C, ...) -> Variable of x's shape."""
        self._lazy_init(x)
        return F.group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
