"""decorrelated_batch_normalization and its fixed-statistics twin: ZCA whitening of channel groups.

The whitening matrix ``(cov + eps I)^(-1/2)`` comes from ``_InvSqrtm``, whose gradient solves a
Sylvester equation (``_SymSylvester``) instead of dividing by eigenvalue gaps, so it stays finite for
repeated eigenvalues; every backward here is built from these nodes, so gradients of any order work.
"""
import numbers

from kusari import backend, utils
from kusari.function_node import FunctionNode
from kusari.variable import as_array


def _swap(a):
    return a.swapaxes(-1, -2)


def _eigh(a):
    return backend.get_array_module(a).linalg.eigh(a)


class _InvSqrtm(FunctionNode):
    """``W = A^(-1/2)`` for a stack of symmetric positive definite matrices A, shape (g, n, n)."""

    def forward(self, inputs):
        a, = inputs
        self.retain_outputs((0,))
        w, v = _eigh(a)
        return utils.force_array((v * w[:, None, :] ** -0.5) @ _swap(v)),

    def backward(self, indexes, grad_outputs):
        # From W^2 A = I: W dW + dW W = -W^2 dA W^2, hence gA = -W^2 S W^2 with W S + S W = gW.
        from kusari.functions.math.matmul import matmul
        w, = self.get_retained_outputs()
        s = _SymSylvester().apply((w, grad_outputs[0]))[0]
        w2 = matmul(w, w)
        return -matmul(matmul(w2, s), w2),


class _SymSylvester(FunctionNode):
    """``S`` solving ``W S + S W = G`` for symmetric positive definite W; shapes (g, n, n)."""

    def forward(self, inputs):
        w, g = inputs
        self.retain_inputs((0,))
        self.retain_outputs((0,))
        lam, v = _eigh(w)
        vt = _swap(v)
        return utils.force_array(v @ ((vt @ g @ v) / (lam[:, :, None] + lam[:, None, :])) @ vt),

    def backward(self, indexes, grad_outputs):
        # The map S -> W S + S W is self-adjoint, so the adjoint solve is the same Sylvester solve.
        from kusari.functions.math.matmul import matmul
        w, = self.get_retained_inputs()
        s, = self.get_retained_outputs()
        t = _SymSylvester().apply((w, grad_outputs[0]))[0]
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(-(matmul(t, s, transb=True) + matmul(s, t, transa=True)))
            else:
                ret.append(t)
        return tuple(ret)


def _group_layout(fname, x, groups):
    """Validate x against ``groups``; return the axis permutation and the (groups, C, m) shape."""
    utils.check_float(fname, "x", x)
    if x.ndim < 2:
        raise ValueError(f"{fname}: x must have at least 2 dimensions (batch, channel, ...), "
                         f"got x.shape={x.shape}")
    if not isinstance(groups, numbers.Integral) or groups < 1:
        raise ValueError(f"{fname}: groups must be a positive int, got {groups!r}")
    c = x.shape[1]
    if c % groups:
        raise ValueError(f"{fname}: x.shape[1]={c} is not divisible by groups={groups}")
    perm = (1, 0) + tuple(range(2, x.ndim))
    return perm, (int(groups), c // groups, x.size // max(c, 1))


def _to_groups(x, perm, gshape):
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.transpose import transpose
    return reshape(transpose(x, perm), gshape)


def _from_groups(y, x_shape, perm):
    from kusari.functions.array.reshape import reshape
    from kusari.functions.array.transpose import transpose
    swapped = tuple(x_shape[i] for i in perm)
    return transpose(reshape(y, swapped), perm)  # perm swaps axes 0 and 1, so it is its own inverse


def decorrelated_batch_normalization(x, groups=16, eps=2e-5, running_mean=None,
                                     running_projection=None, decay=0.9):
    """Decorrelated batch normalization: ZCA-whiten each group of channels with batch statistics.

    x: (N, C, ...) with C divisible by ``groups``; channels ``[k*C/groups, (k+1)*C/groups)`` form
    group k, whitened with ``(cov + eps I)^(-1/2)`` over the batch and spatial axes.
    ``running_mean`` (groups, C/groups) and ``running_projection`` (groups, C/groups, C/groups),
    when given, are updated in place as moving averages (the projection scaled by m / (m - 1),
    m = N * spatial size). An empty batch (m = 0) leaves them unchanged and gives an empty output.
    Returns a Variable of x's shape.
    """
    fname = "decorrelated_batch_normalization"
    perm, gshape = _group_layout(fname, x, groups)
    g, c, m = gshape
    for name, r, shape in (("running_mean", running_mean, (g, c)),
                           ("running_projection", running_projection, (g, c, c))):
        if r is not None and as_array(r).shape != shape:
            raise ValueError(f"{fname}: {name}.shape={as_array(r).shape} does not match {shape} "
                             f"for x.shape={x.shape} and groups={groups}")
    from kusari.functions.math.matmul import matmul
    from kusari.functions.math.sum import mean
    xg = _to_groups(x, perm, gshape)
    mu = mean(xg, axis=2, keepdims=True)
    xc = xg - mu
    xp = backend.get_array_module(xc.array)
    # For an empty batch mu and the covariance are 0, so whiten is finite and the output empty.
    cov = matmul(xc, xc, transb=True) * (1.0 / max(m, 1)) + xp.eye(c, dtype=xc.dtype) * xc.dtype.type(eps)
    whiten = _InvSqrtm().apply((cov,))[0]
    decay = float(decay)
    # An empty batch has no statistics to average in.
    if running_mean is not None and m > 0:
        r = as_array(running_mean)
        r *= decay
        r += (1.0 - decay) * mu.array[:, :, 0]
    if running_projection is not None and m > 0:
        r = as_array(running_projection)
        r *= decay
        r += ((1.0 - decay) * m / max(m - 1.0, 1.0)) * whiten.array
    return _from_groups(matmul(whiten, xc), x.shape, perm)


def fixed_decorrelated_batch_normalization(x, mean, projection, groups=16):
    """Decorrelated batch normalization with given statistics: ``projection @ (x_group - mean)``.

    x: (N, C, ...) with C divisible by ``groups``; mean: (groups, C/groups);
    projection: (groups, C/groups, C/groups). All three inputs are differentiable.
    Returns a Variable of x's shape.
    """
    fname = "fixed_decorrelated_batch_normalization"
    perm, gshape = _group_layout(fname, x, groups)
    g, c, _ = gshape
    utils.check_same_dtype(fname, x=x, mean=mean, projection=projection)
    if mean.shape != (g, c) or projection.shape != (g, c, c):
        raise ValueError(f"{fname}: mean.shape={mean.shape} and projection.shape={projection.shape} "
                         f"must be {(g, c)} and {(g, c, c)} for x.shape={x.shape} and groups={groups}")
    from kusari.functions.array.reshape import reshape
    from kusari.functions.math.matmul import matmul
    xc = _to_groups(x, perm, gshape) - reshape(mean, (g, c, 1))
    return _from_groups(matmul(projection, xc), x.shape, perm)
