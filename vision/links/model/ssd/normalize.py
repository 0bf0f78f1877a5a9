"""Normalize: L2 normalization over channels with a learned per-channel scale (ParseNet; SSD's conv4_3 norm)."""
import kusari
import kusari.functions as F


class Normalize(kusari.Link):
    """Divide each pixel's channel vector by its L2 norm, then multiply channel ``c`` by ``scale[c]``.

    W. Liu, A. Rabinovich, A. C. Berg, ParseNet: Looking Wider to See Better, ICLR 2016.

    Parameters
    ----------
    n_channel : int
        Channels of the input (the size of ``scale``).
    initial : float, initializer or numpy.ndarray of shape (n_channel,)
        Initial ``scale`` (default 0; SSD's VGG-16 uses 20).
    eps : float
        Added to the norm, avoiding a division by zero.

    Parameter: ``scale`` (n_channel,). Input ``(N, n_channel, H, W)``, output of the same shape and dtype.
    """

    def __init__(self, n_channel: int, initial=0, eps: float = 1e-5):
        super().__init__()
        self.eps = eps
        with self.init_scope():
            self.scale = kusari.Parameter(initial, shape=(n_channel,))

    def forward(self, x):
        """x: (N, C, H, W) -> (N, C, H, W)."""
        if x.ndim != 4 or x.shape[1] != self.scale.shape[0]:
            raise ValueError(f"Normalize: x must have shape (N, {self.scale.shape[0]}, H, W), got "
                             f"x.shape={tuple(x.shape)}")
        x = F.normalize(x, eps=self.eps, axis=1)
        return x * F.broadcast_to(F.reshape(self.scale, (1, -1, 1, 1)), x.shape)
