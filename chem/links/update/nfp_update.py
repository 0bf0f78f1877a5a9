"""NFPUpdate: neighbour sums transformed by one linear map per atom degree (Duvenaud et al., 2015)."""
from collections.abc import Sequence

from kusari import functions as F
from kusari.chem.links.connection.graph_linear import GraphLinear
from kusari.link import Chain, ChainList


class NFPUpdate(Chain):
    """``sigmoid(sum_d graph_linears[d](where(deg_conds[d], adj @ h, 0)))``.

    Parameters
    ----------
    in_channels : int or None
    out_channels : int
    max_degree : int
        ``max_degree + 1`` linear maps, one per degree condition.
    """

    def __init__(self, in_channels: int | None, out_channels: int, max_degree: int = 6,
                 **kwargs):
        super().__init__()
        with self.init_scope():
            self.graph_linears = ChainList(*[GraphLinear(in_channels, out_channels)
                                             for _ in range(max_degree + 1)])
        self.max_degree = max_degree
        self.in_channels = in_channels
        self.out_channels = out_channels

    def forward(self, h, adj, deg_conds: Sequence):
        """Update the node features.

        Parameters
        ----------
        h : Variable, shape (minibatch, node, ch)
        adj : array or Variable, shape (minibatch, node, node)
        deg_conds : sequence of bool arrays, each of shape (minibatch, node, ch)
            ``deg_conds[d]`` selects the atoms handled by ``graph_linears[d]``.

        Returns
        -------
        Variable, shape (minibatch, node, out_channels)
        """
        if len(deg_conds) != len(self.graph_linears):
            raise ValueError(f"NFPUpdate: expected {len(self.graph_linears)} degree conditions "
                             f"(max_degree + 1), got {len(deg_conds)}")
        fv = F.matmul(adj, h)
        zero = self.xp.zeros(fv.shape, dtype=fv.dtype)
        out_h = 0
        for graph_linear, cond in zip(self.graph_linears, deg_conds):
            out_h = out_h + graph_linear(F.where(cond, fv, zero))
        return F.sigmoid(out_h)
