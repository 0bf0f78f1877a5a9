"""GroupNormalization: normalize each sample over groups of channels (Wu & He, 2018)."""
from kusari import functions as F
from kusari.links.normalization._affine import AffineNormalization


class GroupNormalization(AffineNormalization):
    """Group normalization: (N, C, ...) -> same shape, with gamma and beta of shape (C,).

    ``size=None`` takes C from the first input.
    """

    def __init__(self, groups, size=None, eps=1e-5, initial_gamma=None, initial_beta=None):
        super().__init__(size, initial_gamma, initial_beta)
        self.groups = groups
        self.eps = eps

    def forward(self, x):
        """x: (N, C, ...) -> Variable of x's shape."""
        self._lazy_init(x)
        return F.group_normalization(x, self.groups, self.gamma, self.beta, self.eps)
