"""SEBlock: the squeeze-and-excitation block of Hu et al., 2018 (ChainerCV's chainercv.links.SEBlock)."""
import kusari
import kusari.functions as F
import kusari.links as L


class SEBlock(kusari.Chain):
    """Channel-wise gating: ``u * sigmoid(up(relu(down(mean_hw(u)))))``.

    Parameters
    ----------
    n_channel : int
        Channels of the input and the output.
    ratio : int
        The hidden layer has ``n_channel // ratio`` units.

    Child links: ``down`` (Linear n_channel -> n_channel // ratio) and ``up`` (back to
    n_channel). Input and output ``(N, n_channel, H, W)``.
    """

    def __init__(self, n_channel: int, ratio: int = 16):
        super().__init__()
        reduction_size = n_channel // ratio
        if reduction_size < 1:
            raise ValueError(f"SEBlock: n_channel // ratio must be at least 1, got n_channel={n_channel}, "
                             f"ratio={ratio}")
        with self.init_scope():
            self.down = L.Linear(n_channel, reduction_size)
            self.up = L.Linear(reduction_size, n_channel)

    def forward(self, u):
        """u: (N, C, H, W) -> (N, C, H, W)."""
        if u.ndim != 4:
            raise ValueError(f"SEBlock: u must be (N, C, H, W), got u.shape={tuple(u.shape)}")
        z = F.average(u, axis=(2, 3))
        scale = F.sigmoid(self.up(F.relu(self.down(z))))
        batch, channels = scale.shape
        return u * F.broadcast_to(F.reshape(scale, (batch, channels, 1, 1)), u.shape)
