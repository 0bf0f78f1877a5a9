"""Shared helpers of the link tests: NumPy references and a gradient check through a link's parameters."""
import itertools

import numpy
import pytest

from kusari import gradient_check


def _conv_ref(x, W, b, stride, pad, dilate=1):
    """Naive N-d cross-correlation: x (N, C, *S), W (O, C, *K) -> (N, O, *S')."""
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if isinstance(v, int) else tuple(v) for v in (stride, pad, dilate))
    xp = numpy.pad(x.astype(numpy.float64), [(0, 0), (0, 0)] + [(p, p) for p in pad])
    ks = W.shape[2:]
    out = [(xp.shape[2 + i] - (ks[i] - 1) * dilate[i] - 1) // stride[i] + 1 for i in range(nd)]
    y = numpy.zeros((x.shape[0], W.shape[0]) + tuple(out))
    for pos in itertools.product(*[range(o) for o in out]):
        for k in itertools.product(*[range(kk) for kk in ks]):
            idx = tuple(pos[i] * stride[i] + k[i] * dilate[i] for i in range(nd))
            patch = xp[(slice(None), slice(None)) + idx]  # (N, C)
            y[(slice(None), slice(None)) + pos] += patch @ W[(slice(None), slice(None)) + k].T
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def _deconv_ref(x, W, b, stride, pad, dilate=1):
    """Naive N-d transposed convolution: x (N, C, *S), W (C, O, *K) -> (N, O, *S')."""
    nd = x.ndim - 2
    stride, pad, dilate = ((v,) * nd if isinstance(v, int) else tuple(v) for v in (stride, pad, dilate))
    ks = W.shape[2:]
    full = [(x.shape[2 + i] - 1) * stride[i] + (ks[i] - 1) * dilate[i] + 1 for i in range(nd)]
    y = numpy.zeros((x.shape[0], W.shape[1]) + tuple(full))
    for pos in itertools.product(*[range(s) for s in x.shape[2:]]):
        for k in itertools.product(*[range(kk) for kk in ks]):
            idx = tuple(pos[i] * stride[i] + k[i] * dilate[i] for i in range(nd))
            y[(slice(None), slice(None)) + idx] += \
                x[(slice(None), slice(None)) + pos].astype(numpy.float64) @ W[(slice(None), slice(None)) + k]
    y = y[(slice(None), slice(None)) + tuple(slice(p, f - p) for p, f in zip(pad, full))]
    if b is not None:
        y += b.reshape((1, -1) + (1,) * nd)
    return y


def _sigmoid(x):
    return 1 / (1 + numpy.exp(-x))


def _check_link_backward(link, inputs, dtype=numpy.float32, no_grads=None, **tol):
    """check_backward of ``link(*inputs)`` w.r.t. the inputs and every initialized parameter."""
    inputs = inputs if isinstance(inputs, tuple) else (inputs,)
    for p in link.params():
        p.array = p.array.astype(dtype)
    inputs = tuple(x.astype(dtype) if x.dtype.kind == "f" else x for x in inputs)
    with_template = link(*inputs)
    outs = with_template if isinstance(with_template, tuple) else (with_template,)
    rng = numpy.random.default_rng(5)
    gys = tuple(rng.uniform(-1, 1, y.shape).astype(dtype) for y in outs)
    opts = {"atol": 1e-4, "rtol": 1e-3} if dtype == numpy.float64 else {"atol": 2e-3, "rtol": 2e-2}
    opts.update(tol)
    gradient_check.check_backward(link, inputs, gys, params=list(link.params()),
                                  dtype=numpy.float64, no_grads=no_grads,
                                  eps=1e-4 if dtype == numpy.float64 else 1e-3, **opts)


@pytest.fixture
def conv_ref():
    return _conv_ref


@pytest.fixture
def deconv_ref():
    return _deconv_ref


@pytest.fixture
def sigmoid():
    return _sigmoid


@pytest.fixture
def check_link_backward():
    return _check_link_backward
