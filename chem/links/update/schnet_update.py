"""SchNetUpdate and its continuous-filter convolution CFConv (Schütt et al., 2017)."""
from kusari import functions as F
from kusari.chem.functions import shifted_softplus
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.chem.links.readout._mask import mask_padding_nodes
from kusari.link import Chain, ChainList
from kusari.links import Linear


class CFConv(Chain):
    """Continuous-filter convolution: interatomic distances expanded on Gaussian radial basis
    functions, turned into filters by two dense layers, applied to the neighbour features.

    Parameters
    ----------
    num_rbf : int
        Number of radial basis functions, centred at ``k * radius_resolution``.
    radius_resolution : float
    gamma : float
        Width coefficient: ``exp(-gamma (d - mu_k)^2)``.
    hidden_dim : int
        Feature size of h and of the filters.
    """

    def __init__(self, num_rbf: int = 300, radius_resolution: float = 0.1, gamma: float = 10.0,
                 hidden_dim: int = 64):
        super().__init__()
        with self.init_scope():
            self.dense1 = Linear(num_rbf, hidden_dim)
            self.dense2 = Linear(hidden_dim)
        self.hidden_dim = hidden_dim
        self.num_rbf = num_rbf
        self.radius_resolution = radius_resolution
        self.gamma = gamma

    def forward(self, h, dist):
        """Convolve.

        Parameters
        ----------
        h : Variable, shape (minibatch, atom, hidden_dim)
        dist : array or Variable, shape (minibatch, atom, atom)
            Interatomic distances.

        Returns
        -------
        Variable, shape (minibatch, atom, hidden_dim): ``out[b, i] = sum_j h[b, j] * W[b, j, i]``
        """
        mb, atom, ch = h.shape
        if ch != self.hidden_dim:
            raise ValueError(f"CFConv: h has {ch} channels but hidden_dim is {self.hidden_dim} "
                             f"(h.shape={h.shape})")
        if dist.shape != (mb, atom, atom):
            raise ValueError(f"CFConv: dist must have shape (minibatch, atom, atom) = "
                             f"{(mb, atom, atom)}, got {dist.shape}")
        centers = self.xp.arange(self.num_rbf, dtype=dist.dtype) * dist.dtype.type(
            self.radius_resolution)
        d = F.broadcast_to(F.reshape(dist, (mb, atom, atom, 1)), (mb, atom, atom, self.num_rbf))
        rbf = F.exp(-self.gamma * (d - centers) ** 2)
        w = shifted_softplus(self.dense1(F.reshape(rbf, (-1, self.num_rbf))))
        w = F.reshape(shifted_softplus(self.dense2(w)), (mb, atom, atom, ch))
        hb = F.broadcast_to(F.reshape(h, (mb, atom, 1, ch)), (mb, atom, atom, ch))
        return F.sum(hb * w, axis=1)


class SchNetUpdate(Chain):
    """Residual interaction block: ``h + linear[2](ssp(linear[1](cfconv(linear[0](h), dist))))``.

    Parameters
    ----------
    hidden_channels : int
        Size of h (input and output).
    num_rbf, radius_resolution, gamma : see CFConv
    """

    def __init__(self, hidden_channels: int = 64, num_rbf: int = 300,
                 radius_resolution: float = 0.1, gamma: float = 10.0):
        super().__init__()
        with self.init_scope():
            self.linear = ChainList(*[GraphLinear(None, hidden_channels) for _ in range(3)])
            self.cfconv = CFConv(num_rbf=num_rbf, radius_resolution=radius_resolution,
                                 gamma=gamma, hidden_dim=hidden_channels)
        self.hidden_channels = hidden_channels

    def forward(self, h, adj, is_real_node=None, **kwargs):
        """h: (minibatch, atom, hidden_channels), adj: distances (minibatch, atom, atom) -> like h;
        is_real_node (minibatch, atom) or None: padding atoms (0) send nothing."""
        v = self.cfconv(mask_padding_nodes(self.linear[0](h), is_real_node), adj)
        v = self.linear[2](shifted_softplus(self.linear[1](v)))
        return h + v
