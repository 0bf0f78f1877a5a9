"""Numerical gradient checks: ``numerical_grad``, ``check_backward``, ``check_double_backward``.

``check_backward`` compares the analytic gradient with a central-difference estimate along one
random direction (Chainer v7's method): one check costs two extra forward passes whatever the
input size, and a wrong element shows up with probability one.
"""
import numpy

from kusari import backend
from kusari._backprop import backward, grad
from kusari.variable import Variable


def _as_tuple(x):
    if x is None:
        return ()
    return tuple(x) if isinstance(x, (tuple, list)) else (x,)


def _to_cpu64(x):
    return backend.CpuDevice().send(x).astype(numpy.float64)


def numerical_grad(f, inputs, grad_outputs, eps=1e-3):
    """Elementwise central-difference gradient of ``sum(f() * grad_outputs)`` w.r.t. each input array.

    ``f`` takes no arguments and returns a tuple of arrays; ``inputs`` are modified in place and
    restored. Returns one float64 (host) gradient array per input.
    """
    grads = []
    gys = [None if g is None else _to_cpu64(g) for g in _as_tuple(grad_outputs)]

    def value():
        ys = _as_tuple(f())
        return sum(float((_to_cpu64(y) * gy).sum()) for y, gy in zip(ys, gys) if gy is not None)

    for x in inputs:
        g = numpy.zeros(x.shape, numpy.float64)
        flat_index = numpy.ndindex(*x.shape)
        for idx in flat_index:
            orig = x[idx].copy() if hasattr(x[idx], "copy") else x[idx]
            x[idx] = orig + eps
            plus = value()
            x[idx] = orig - eps
            minus = value()
            x[idx] = orig
            g[idx] = (plus - minus) / (2 * eps)
        grads.append(g)
    return grads


def _outputs(ys):
    return tuple(y for y in _as_tuple(ys))


class NondifferentiableError(Exception):
    """The inputs of a gradient check lie (within ``eps``) on a kink of the function."""


def check_backward(func, x_data, y_grad=None, params=(), eps=1e-3, atol=1e-5, rtol=1e-4,
                   no_grads=None, dtype=None, detect_nondifferentiable=False):
    """Assert that ``func``'s backward agrees with a numerical directional derivative.

    Parameters
    ----------
    func : callable
        Takes Variables (one per array in ``x_data``) and returns a Variable or a tuple of them.
    x_data : array or tuple of arrays
    y_grad : array, tuple of arrays, or None
        Upstream gradients, one per output (None for a single-element output).
    params : tuple of Parameters or Variables used inside ``func`` whose gradients are checked too.
    no_grads : list of bool, optional
        Inputs to skip; non-float inputs are always skipped.
    dtype : numpy dtype, optional
        Evaluate the numerical derivative with the inputs cast to this dtype (e.g. float64 while
        checking a float32 backward).
    detect_nondifferentiable : bool
        Raise ``NondifferentiableError`` when the one-sided slopes differ by a jump that does not
        shrink with the step (a kink within ``eps``), instead of comparing there.
    """
    x_data = _as_tuple(x_data)
    params = _as_tuple(params)
    if no_grads is None:
        no_grads = [x.dtype.kind != "f" for x in x_data]
    elif len(no_grads) != len(x_data):
        raise ValueError(f"check_backward: {len(no_grads)} no_grads for {len(x_data)} inputs")
    xs = [Variable(x.copy(), requires_grad=not skip) for x, skip in zip(x_data, no_grads)]
    ys = _outputs(func(*xs))
    y_grad = _as_tuple(y_grad)
    if y_grad and len(y_grad) != len(ys):
        raise ValueError(f"check_backward: func returned {len(ys)} outputs but {len(y_grad)} y_grad")
    if not y_grad:
        if any(y.size != 1 for y in ys):
            raise ValueError("check_backward: y_grad is required when outputs have more than one element")
        y_grad = tuple(backend.get_array_module(y.array).ones_like(y.array) for y in ys)
    pairs = [(y, g) for y, g in zip(ys, y_grad) if g is not None and y.dtype.kind == "f"]
    for p in params:
        p.cleargrad()
    if pairs:
        backward([y for y, _ in pairs], [Variable(g, requires_grad=False) for _, g in pairs])

    targets = [(i, x) for i, x in enumerate(xs) if x.requires_grad] + [(None, p) for p in params]
    if not targets:
        raise ValueError("check_backward: nothing to check (every input is skipped and no params)")
    rng = numpy.random.default_rng(0)
    directions = [rng.standard_normal(v.shape) for _, v in targets]
    norm = numpy.sqrt(sum((d ** 2).sum() for d in directions)) or 1.0
    directions = [d / norm for d in directions]

    analytic = 0.0
    for (_, v), d in zip(targets, directions):
        if v.grad is not None:
            analytic += float((_to_cpu64(v.grad) * d).sum())

    base_inputs = list(x_data)
    param_base = [p.array.copy() for p in params]
    eval_dtype = None if dtype is None else numpy.dtype(dtype)

    def shifted(t):
        xs_ = []
        xp = backend.get_array_module(*x_data)
        k = 0
        for i, x in enumerate(base_inputs):
            if not no_grads[i]:
                d = xp.asarray(directions[k])
                k += 1
                xd = eval_dtype or x.dtype
                x = xp.asarray(x.astype(numpy.float64) + t * d).astype(xd) if x.dtype.kind == "f" else x
            elif eval_dtype is not None and x.dtype.kind == "f":
                x = x.astype(eval_dtype)
            xs_.append(Variable(x, requires_grad=not no_grads[i]))
        for p, base, d in zip(params, param_base, directions[k:]):
            pd = eval_dtype or base.dtype
            pxp = backend.get_array_module(base)
            p.array = pxp.asarray(base.astype(numpy.float64) + t * pxp.asarray(d)).astype(pd)
        out = _outputs(func(*xs_))
        total = 0.0
        for y, g in zip(out, y_grad):
            if g is not None and y.dtype.kind == "f":
                total += float((_to_cpu64(y.array) * _to_cpu64(g)).sum())
        return total

    try:
        numeric = (shifted(eps) - shifted(-eps)) / (2 * eps)
        if detect_nondifferentiable:
            center = shifted(0.0)
            # one-sided slopes differ by O(step) where smooth; a kink leaves a jump that stays as the step halves
            jump = [abs((shifted(h) - center) / h - (center - shifted(-h)) / h) for h in (eps, eps / 2)]
            if jump[0] > atol + rtol * abs(numeric) and jump[1] > 0.75 * jump[0]:
                raise NondifferentiableError(
                    f"check_backward: the inputs lie on a kink (one-sided slopes differ by {jump[0]:.3g} "
                    f"at eps={eps} and {jump[1]:.3g} at eps/2)")
    finally:
        for p, base in zip(params, param_base):
            p.array = base
    if not abs(numeric - analytic) <= atol + rtol * abs(numeric):
        raise AssertionError(
            f"check_backward failed: the numerical directional derivative {numeric:.8g} differs from "
            f"the analytic one {analytic:.8g} (|diff|={abs(numeric - analytic):.3g}, atol={atol}, "
            f"rtol={rtol}, eps={eps}); inputs: "
            + ", ".join(f"{x.shape} {x.dtype}" for x in x_data))


def check_double_backward(func, x_data, y_grad, x_grad_grad, params=(), params_grad_grad=(),
                          eps=1e-3, atol=1e-4, rtol=1e-3, no_grads=None, dtype=None,
                          detect_nondifferentiable=False):
    """Assert that the gradient of ``func`` is itself correctly differentiable.

    Checks ``check_backward`` on the map (x, gy) -> gx, with ``x_grad_grad`` (and
    ``params_grad_grad``) as the upstream gradients of gx.
    """
    x_data = _as_tuple(x_data)
    y_grad = _as_tuple(y_grad)
    params = _as_tuple(params)
    n_x = len(x_data)
    if no_grads is None:
        no_grads = [x.dtype.kind != "f" for x in x_data]
    x_grad_grad = _as_tuple(x_grad_grad)
    gg_inputs = [g for g, skip in zip(x_grad_grad, no_grads) if not skip] \
        if len(x_grad_grad) == n_x else list(x_grad_grad)

    def first_order(*inputs):
        xs = inputs[:n_x]
        gys = inputs[n_x:]
        ys = _outputs(func(*xs))
        wrt = [x for x, skip in zip(xs, no_grads) if not skip] + list(params)
        grads = grad(list(ys), wrt, list(gys), enable_double_backprop=True)
        out = []
        for g, v in zip(grads, wrt):
            if g is None:
                g = Variable(backend.get_array_module(v.array).zeros_like(v.array), requires_grad=False)
            out.append(g)
        return tuple(out)

    check_backward(first_order, x_data + y_grad, tuple(gg_inputs) + _as_tuple(params_grad_grad),
                   params=params, eps=eps, atol=atol, rtol=rtol,
                   no_grads=list(no_grads) + [False] * len(y_grad), dtype=dtype,
                   detect_nondifferentiable=detect_nondifferentiable)
