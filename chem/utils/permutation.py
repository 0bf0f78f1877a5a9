"""Renumber the nodes of node arrays and adjacency matrices (to test permutation invariance)."""
import numpy


def permute_node(node: numpy.ndarray, permutation_index, axis: int = -1) -> numpy.ndarray:
    """``node`` with its entries along ``axis`` reordered: ``out[..., i] = node[..., permutation_index[i]]``.

    Parameters
    ----------
    node : numpy.ndarray
    permutation_index : 1-D int array, (node.shape[axis],)
    axis : int

    Returns
    -------
    numpy.ndarray
        A new array of ``node``'s shape and dtype.
    """
    if node.shape[axis] != len(permutation_index):
        raise ValueError(f"permute_node: node.shape[{axis}] = {node.shape[axis]} but permutation_index has "
                         f"{len(permutation_index)} entries (node.shape={node.shape})")
    return numpy.take(node, permutation_index, axis=axis)


def permute_adj(adj: numpy.ndarray, permutation_index, axis=None) -> numpy.ndarray:
    """``adj`` with both node axes reordered: ``out[..., i, j] = adj[..., p[i], p[j]]``.

    Parameters
    ----------
    adj : numpy.ndarray, (..., N, N)
    permutation_index : 1-D int array, (N,)
    axis : list or tuple of 2 ints, or None
        The two node axes; None is ``[-1, -2]``.

    Returns
    -------
    numpy.ndarray
        A new array of ``adj``'s shape and dtype.
    """
    if axis is None:
        axis = [-1, -2]
    elif not isinstance(axis, (list, tuple)):
        raise TypeError(f"permute_adj: axis must be a list or tuple of two ints, got {type(axis).__name__}")
    elif len(axis) != 2:
        raise ValueError(f"permute_adj: axis must have 2 entries, got {len(axis)}")
    for ax in axis:
        if adj.shape[ax] != len(permutation_index):
            raise ValueError(f"permute_adj: adj.shape[{ax}] = {adj.shape[ax]} but permutation_index has "
                             f"{len(permutation_index)} entries (adj.shape={adj.shape})")
    return numpy.take(numpy.take(adj, permutation_index, axis=axis[0]), permutation_index, axis=axis[1])
