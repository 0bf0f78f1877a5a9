"""LayerNormalization: normalize each sample over its features (Ba et al., 2016)."""
from kusari import functions as F
from kusari.links.normalization._affine import AffineNormalization


class LayerNormalization(AffineNormalization):
    """Layer normalization: (N, size) -> (N, size), with gamma and beta of shape (size,).

    ``size=None`` takes it from the first input.
    """

    def __init__(self, size=None, eps=1e-6, initial_gamma=None, initial_beta=None):
        super().__init__(size, initial_gamma, initial_beta)
        self.eps = eps

    def forward(self, x):
        """x: (N, size) -> Variable of shape (N, size)."""
        self._lazy_init(x)
        return F.layer_normalization(x, self.gamma, self.beta, self.eps)
