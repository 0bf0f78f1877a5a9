"""Per-channel parameters (prelu's W, swish's beta): shape checks, broadcasting and reduction.

A parameter of shape ``(s_1, ..., s_M)`` applies to ``x`` of shape ``(s_0, s_1, ..., s_N)``
(``M <= N``) as if reshaped to ``(1, s_1, ..., s_M, 1, ..., 1)``.
"""


def check_param(fname, pname, x, p):
    """Raise ValueError unless ``p.shape == x.shape[1:1 + p.ndim]``."""
    if p.ndim > x.ndim - 1 or tuple(p.shape) != tuple(x.shape[1:1 + p.ndim]):
        raise ValueError(f"{fname}: {pname}.shape={tuple(p.shape)} must equal "
                         f"x.shape[1:{1 + p.ndim}] (x.shape={tuple(x.shape)})")


def extended_shape(p_shape, x_ndim):
    """The shape that lines a parameter up with ``x``'s axes 1..M."""
    return (1,) + tuple(p_shape) + (1,) * (x_ndim - len(p_shape) - 1)


def expand(p, x_ndim):
    """A parameter (array or Variable) reshaped to broadcast against ``x``."""
    return p.reshape(extended_shape(p.shape, x_ndim))


def reduce_to_param(g, p_shape):
    """Sum an ``x``-shaped Variable down to a parameter's shape (differentiable)."""
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.sum_to import sum_to
    return reshape(sum_to(g, extended_shape(p_shape, g.ndim)), p_shape)
