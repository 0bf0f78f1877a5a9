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
