"""Zeroing the features of padding nodes before a readout sums over nodes."""
from kusari import backend
from kusari.variable import Variable


def mask_padding_nodes(g, is_real_node):
    """Multiply g by is_real_node broadcast over channels.

    Parameters
    ----------
    g : Variable, shape (minibatch, node, ch)
    is_real_node : array, Variable or None, shape (minibatch, node)
        1 for real nodes, 0 for padding; None leaves g unchanged.

    Returns
    -------
    Variable, shape (minibatch, node, ch), g's dtype
    """
    if is_real_node is None:
        return g
    mask = padding_mask(is_real_node, g.shape[:2])
    xp = backend.get_array_module(mask)
    return g * xp.broadcast_to(mask.astype(g.dtype, copy=False)[:, :, None], g.shape)


def padding_mask(is_real_node, shape):
    """``is_real_node`` (array or Variable) as an array, checked to have ``shape`` (minibatch, node)."""
    mask = is_real_node.array if isinstance(is_real_node, Variable) else is_real_node
    if mask.shape != tuple(shape):
        raise ValueError(f"readout: is_real_node must have shape (minibatch, node) = "
                         f"{tuple(shape)}, got {mask.shape}")
    return mask


# subtracted from the padding nodes' logits or features: a softmax gives them exactly 0 (exp
# underflows) and a max never picks them; finite, so gradients stay finite
_PADDING_OFFSET = 1e9


def exclude_padding(x, is_real_node, node_axis: int):
    """``x`` with a large negative offset added at the padding nodes, before a softmax or max over nodes.

    Parameters
    ----------
    x : Variable, shape (minibatch, ...) with the nodes on ``node_axis``
    is_real_node : array, Variable or None, shape (minibatch, node)
        None returns x unchanged.
    node_axis : int

    Returns
    -------
    Variable, x's shape and dtype
    """
    if is_real_node is None:
        return x
    mask = padding_mask(is_real_node, (x.shape[0], x.shape[node_axis]))
    xp = backend.get_array_module(mask)
    offset = (mask.astype(x.dtype, copy=False) - 1) * x.dtype.type(_PADDING_OFFSET)
    shape = [1] * x.ndim
    shape[0], shape[node_axis] = offset.shape
    return x + xp.broadcast_to(offset.reshape(shape), x.shape)
