"""The rows of the real nodes of a padded graph batch, for ``kusari.chem.functions.take_rows`` and ``put_rows``.

``real_rows(is_real_node)`` finds those rows (the mask is 1 for a real node, 0 for padding).
"""
from kusari import backend


def real_rows(is_real_node):
    """The indices (int64, ascending) of the real nodes among the ``minibatch * node`` rows of a
    padded batch, from its 0/1 ``is_real_node`` mask (minibatch, node); the mask's array module."""
    return backend.get_array_module(is_real_node).flatnonzero(is_real_node.reshape(-1))
