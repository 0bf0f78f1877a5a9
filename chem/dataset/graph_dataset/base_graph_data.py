"""Graph data: one graph's arrays as attributes (padded adjacency, or sparse edge lists)."""
import numpy

from kusari.utils import CooMatrix


class BaseGraphData:
    """A graph's arrays held as attributes named by the keyword arguments.

    Parameters
    ----------
    **kwargs
        Attribute name to value (arrays, CooMatrix, numbers).
    """

    def __init__(self, *args, **kwargs):
        for key, value in kwargs.items():
            setattr(self, key, value)

    def to_device(self, device):
        """Move every NumPy array and CooMatrix attribute to ``device``, in place.

        Parameters
        ----------
        device : kusari.backend.Device
            Where to send them.

        Returns
        -------
        BaseGraphData
            ``self``.
        """
        for key, value in vars(self).items():
            if isinstance(value, numpy.ndarray):
                setattr(self, key, device.send(value))
            elif isinstance(value, CooMatrix):
                setattr(self, key, CooMatrix(device.send(value.data.array), device.send(value.row),
                                             device.send(value.col), value.shape, order=value.order))
        return self


def _n_nodes(caller: str, x) -> int:
    if x is None or not hasattr(x, "shape"):
        raise TypeError(f"{caller}: x must be the (n_nodes, ...) array of node features, got "
                        f"{type(x).__name__}")
    return x.shape[0]


class PaddingGraphData(BaseGraphData):
    """A graph with a dense (possibly padded) adjacency matrix.

    Parameters
    ----------
    x : numpy.ndarray
        ``(n_nodes, ...)`` node features (e.g. atomic numbers ``(n_nodes,)``).
    adj : numpy.ndarray
        ``(n_nodes, n_nodes)`` (or ``(R, n_nodes, n_nodes)``) adjacency.
    super_node, pos : numpy.ndarray or None
        Supernode features, node positions.
    y : int or numpy.ndarray or None
        Graph or node labels.
    **kwargs
        Further attributes.
    """

    def __init__(self, x=None, adj=None, super_node=None, pos=None, y=None, **kwargs):
        self.x = x
        self.adj = adj
        self.super_node = super_node
        self.pos = pos
        self.y = y
        self.n_nodes = _n_nodes("PaddingGraphData", x)
        super().__init__(**kwargs)


class SparseGraphData(BaseGraphData):
    """A graph with its edges as a list.

    Parameters
    ----------
    x : numpy.ndarray
        ``(n_nodes, ...)`` node features.
    edge_index : numpy.ndarray
        ``(2, E)`` integer sources (row 0) and destinations (row 1).
    edge_attr : numpy.ndarray or None
        ``(E, ...)`` edge features (e.g. bond types ``(E,)``).
    pos, super_node : numpy.ndarray or None
        Node positions, supernode features.
    y : int or numpy.ndarray or None
        Graph or node labels.
    **kwargs
        Further attributes.
    """

    def __init__(self, x=None, edge_index=None, edge_attr=None, pos=None, super_node=None, y=None,
                 **kwargs):
        self.x = x
        self.edge_index = edge_index
        self.edge_attr = edge_attr
        self.pos = pos
        self.super_node = super_node
        self.y = y
        self.n_nodes = _n_nodes("SparseGraphData", x)
        super().__init__(**kwargs)
