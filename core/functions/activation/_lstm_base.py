"""Shared machinery of the LSTM-family activations (lstm, slstm, tree_lstm).

Every member computes, from gate pre-activations ``a_k, i_k`` (cell inputs), ``f_k`` (one
forget gate per previous cell ``c_k``) and ``o`` (output gate)::

    c = sum_k tanh(a_k) * sigmoid(i_k) + sum_k sigmoid(f_k) * c_k
    h = sigmoid(o) * tanh(c)

and differs only in how the gates are laid out in its inputs. ``cell_forward`` works on arrays;
``cell_backward`` returns Variables built from differentiable functions, so double backprop
comes free.
"""
import functools
import operator

from kusari import backend, utils
from kusari.functions.activation.sigmoid import sigmoid, sigmoid_array
from kusari.functions.activation.tanh import tanh
from kusari.variable import Variable


def split_gates(x, n, interleaved):
    """Split axis 1 of ``x`` (an array or a Variable) into ``n`` gates of ``x.shape[1] // n``.

    ``interleaved`` (lstm, slstm): channel ``u * n + g`` belongs to gate ``g``.
    Otherwise (tree_lstm) gate ``g`` is the block ``[g * H, (g + 1) * H)``.
    """
    batch, channels = x.shape[:2]
    rest = tuple(x.shape[2:])
    units = channels // n
    if interleaved:
        r = x.reshape((batch, units, n) + rest)
        return [r[:, :, g] for g in range(n)]
    r = x.reshape((batch, n, units) + rest)
    return [r[:, g] for g in range(n)]


def merge_gates(gates, interleaved):
    """Inverse of ``split_gates`` for Variables: one Variable with the gates laid out on axis 1."""
    from kusari.functions.array.concat import concat
    from kusari.functions.array.reshape import reshape
    axis = 2 if interleaved else 1
    shape = gates[0].shape
    parts = [reshape(g, shape[:axis] + (1,) + shape[axis:]) for g in gates]
    merged = concat(parts, axis)
    return reshape(merged, (shape[0], shape[1] * len(gates)) + tuple(shape[2:]))


def cell_forward(xp, a, i, f, o, cs):
    """``(c, h)`` arrays from gate pre-activation arrays (lists ``a``, ``i``, ``f``; array ``o``)."""
    c = _total([xp.tanh(ak) * sigmoid_array(xp, ik) for ak, ik in zip(a, i)]
               + [sigmoid_array(xp, fk) * ck for fk, ck in zip(f, cs)])
    h = sigmoid_array(xp, o) * xp.tanh(c)
    return utils.force_array(c), utils.force_array(h)


def cell_backward(a, i, f, o, cs, gc, gh):
    """Gradients ``(ga, gi, gf, go, gcs)`` (Variables, lists like the inputs) of ``cell_forward``.

    ``a, i, f, o, cs`` are Variables; ``gc``/``gh`` are the output gradients (None: zero).
    """
    ta = [tanh(ak) for ak in a]
    si = [sigmoid(ik) for ik in i]
    sf = [sigmoid(fk) for fk in f]
    so = sigmoid(o)
    c = _total([t * s for t, s in zip(ta, si)] + [s * ck for s, ck in zip(sf, cs)])
    tc = tanh(c)
    gc = _zeros_if_none(gc, c)
    gh = _zeros_if_none(gh, c)
    g_cell = gc + gh * so * (1.0 - tc * tc)
    ga = [g_cell * s * (1.0 - t * t) for t, s in zip(ta, si)]
    gi = [g_cell * t * s * (1.0 - s) for t, s in zip(ta, si)]
    gf = [g_cell * ck * s * (1.0 - s) for s, ck in zip(sf, cs)]
    go = gh * tc * so * (1.0 - so)
    gcs = [g_cell * s for s in sf]
    return ga, gi, gf, go, gcs


def _total(terms):
    return functools.reduce(operator.add, terms)


def _zeros_if_none(g, like):
    return zeros(like.shape, like) if g is None else g


def zeros(shape, like):
    """A constant zero Variable of ``shape`` with ``like``'s dtype and device."""
    xp = backend.get_array_module(like.array)
    return Variable(xp.zeros(shape, like.dtype), requires_grad=False)


def check_cells_and_inputs(fname, cells, xs, n_gates, same_batch=True):
    """Validate float dtypes, ranks and shapes of cell states and gate inputs.

    ``cells`` and ``xs`` are lists of ``(name, array)``; each x must have ``n_gates`` times the
    channels of the cells, the cells' trailing shape, and (with ``same_batch``) their batch size.
    """
    named = dict(cells + xs)
    first_name, first = cells[0]
    utils.check_float(fname, first_name, first)
    utils.check_same_dtype(fname, **named)
    for name, arr in cells + xs:
        if arr.ndim < 2 or arr.ndim != first.ndim:
            raise ValueError(f"{fname}: {name} must have the same number (>= 2) of dimensions as "
                             f"{first_name}, got {name}.shape={arr.shape}, "
                             f"{first_name}.shape={first.shape}")
    for name, c in cells:
        if c.shape[1:] != first.shape[1:] or (same_batch and c.shape[0] != first.shape[0]):
            raise ValueError(f"{fname}: {name}.shape={c.shape} does not match "
                             f"{first_name}.shape={first.shape}")
    expected = (n_gates * first.shape[1],) + first.shape[2:]
    for name, x in xs:
        if x.shape[1:] != expected:
            raise ValueError(f"{fname}: {name}.shape[1:]={x.shape[1:]} must be {expected} "
                             f"({n_gates} gates of {first_name}.shape[1:]={first.shape[1:]})")
        if same_batch and x.shape[0] != first.shape[0]:
            raise ValueError(f"{fname}: {name}.shape[0]={x.shape[0]} does not match "
                             f"{first_name}.shape[0]={first.shape[0]}")
