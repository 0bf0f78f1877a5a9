"""cuDNN batch normalization on CuPy arrays: training forward (batch statistics), its backward, and
inference with given statistics; per channel (axis 1) of (N, C, d...) arrays with up to two spatial axes.

The functions mirror :mod:`kusari.onednn.batch_normalization`'s, so the op's nodes call either module
alike. Running averages stay the op's business (Chainer's decay and Bessel correction): the training
graph's own running outputs go to scratch arrays, and the batch variance is recovered from cuDNN's
saved inverse standard deviation.
"""
from __future__ import annotations

import numpy

from kusari import cudnn

_MAX_NDIM = 4


def _as_4d(a):
    """``a`` (N, C, d...) with up to two spatial axes, as (N, C, H, W)."""
    return a.reshape(a.shape + (1,) * (_MAX_NDIM - a.ndim))


def _channel(a, c):
    return a.reshape(1, c, 1, 1)


def _scalar(lib, graph):
    return graph.tensor(dim=[1, 1, 1, 1], stride=[1, 1, 1, 1], data_type=lib.data_type.FLOAT,
                        is_pass_by_value=True)


def _training_plan(lib, x4, param_dtype):
    """The cached training graph of ``x4`` (N, C, H, W) with scale and bias of ``param_dtype``; None if refused."""
    switches = cudnn.flags()
    key = cudnn.graph_key("batchnorm", (x4,), (numpy.dtype(param_dtype).name,), switches)

    def make():
        graph, t = describe_training(lib, x4, cudnn.handle(lib), param_dtype)
        return cudnn.build(lib, graph, t, switches, x4.dtype)

    return cudnn.plan_for(lib, key, make)


def describe_training(lib, x4, cudnn_handle=None, param_dtype=None):
    """The training graph of arrays shaped like ``x4`` (N, C, H, W), scale and bias of ``param_dtype``
    (default: x's; float32 with a float16 x under mixed16), and its tensors by role."""
    c = x4.shape[1]
    graph = cudnn.new_graph(lib, x4.dtype, cudnn_handle)
    t = {"x": cudnn.tensor(lib, graph, x4)}
    for role in ("scale", "bias", "in_mean", "in_var"):
        dtype = (param_dtype or x4.dtype) if role in ("scale", "bias") else numpy.float32
        t[role] = cudnn.tensor(lib, graph, shape=(1, c, 1, 1), dtype=dtype)
    t["eps"], t["momentum"] = _scalar(lib, graph), _scalar(lib, graph)
    outs = graph.batchnorm(input=t["x"], scale=t["scale"], bias=t["bias"], in_running_mean=t["in_mean"],
                           in_running_var=t["in_var"], epsilon=t["eps"], momentum=t["momentum"])
    for role, out in zip(("y", "mean", "inv_var", "run_mean", "run_var"), outs):
        out.set_output(True).set_data_type(cudnn.data_type(lib, x4.dtype if role == "y" else numpy.float32))
        t[role] = out
    return graph, t


def supports_training(lib, x, eps, param_dtype=None) -> bool:
    """Whether cuDNN takes this case: 2 to 4 axes, at least two values per channel, eps >= 1e-5
    (cuDNN's CUDNN_BN_MIN_EPSILON), and a graph cuDNN supports (built here, once per shape) with
    scale and bias of ``param_dtype`` (default: x's)."""
    return (2 <= x.ndim <= _MAX_NDIM and x.size // max(x.shape[1], 1) >= 2 and eps >= 1e-5
            and _training_plan(lib, _as_4d(x), param_dtype or x.dtype) is not None)


def forward_training(lib, x, gamma, beta, eps):
    """``(y, mean, var)``: y like x, and the batch mean and biased variance (C,); see :func:`supports_training`."""
    import cupy
    x4 = _as_4d(x)
    c = x.shape[1]
    f32 = numpy.float32
    stats = {name: cupy.empty((1, c, 1, 1), f32) for name in ("mean", "inv_var", "run_mean", "run_var")}
    feed = {"x": x4, "scale": _channel(gamma, c), "bias": _channel(beta, c),
            "in_mean": cupy.zeros((1, c, 1, 1), f32), "in_var": cupy.ones((1, c, 1, 1), f32),
            "eps": numpy.full((1, 1, 1, 1), eps, f32), "momentum": numpy.full((1, 1, 1, 1), 0.1, f32),
            "y": cupy.empty(x4.shape, x.dtype), **stats}
    _training_plan(lib, x4, gamma.dtype).run(lib, feed)
    y = feed["y"]
    mean = stats["mean"].reshape(c).astype(gamma.dtype, copy=False)
    var = (stats["inv_var"].reshape(c) ** -2 - f32(eps)).astype(gamma.dtype, copy=False)
    return y.reshape(x.shape), mean, var


def backward(lib, x, gamma, mean, var, gy, eps):
    """``(gx, ggamma, gbeta)`` of :func:`forward_training` with its batch statistics ``mean``, ``var``."""
    import cupy
    x4, c = _as_4d(x), x.shape[1]
    f32 = numpy.float32
    feed = {"x": x4, "dy": _as_4d(cupy.ascontiguousarray(gy)), "scale": _channel(gamma, c),
            "mean": _channel(mean.astype(f32, copy=False), c),
            "inv_var": _channel(((var + f32(eps)) ** f32(-0.5)).astype(f32, copy=False), c),
            "dx": cupy.empty(x4.shape, x.dtype), "dscale": cupy.empty((1, c, 1, 1), gamma.dtype),
            "dbias": cupy.empty((1, c, 1, 1), gamma.dtype)}
    switches = cudnn.flags()
    key = cudnn.graph_key("batchnorm_backward", (x4, feed["dy"], feed["scale"]), (), switches)

    def make():
        graph, t = describe_backward(lib, feed, cudnn.handle(lib))
        return cudnn.build(lib, graph, t, switches, x.dtype)

    plan = cudnn.plan_for(lib, key, make)
    if plan is None:   # the op chose cuDNN when its forward graph was built; it cannot change course now
        raise RuntimeError(f"cudnn: batch normalization's backward graph is not supported for x.shape="
                           f"{x.shape} ({x.dtype}) although its forward was; use_cudnn='never' avoids cuDNN")
    plan.run(lib, feed)
    return feed["dx"].reshape(x.shape), feed["dscale"].reshape(c), feed["dbias"].reshape(c)


def describe_backward(lib, feed, cudnn_handle=None):
    """The backward graph of arrays shaped like ``feed``'s (role -> array) and its tensors by role."""
    graph = cudnn.new_graph(lib, feed["x"].dtype, cudnn_handle)
    t = {r: cudnn.tensor(lib, graph, feed[r]) for r in ("x", "dy", "scale", "mean", "inv_var")}
    outs = graph.batchnorm_backward(grad=t["dy"], input=t["x"], scale=t["scale"], mean=t["mean"],
                                    inv_variance=t["inv_var"])
    for role, out in zip(("dx", "dscale", "dbias"), outs):
        out.set_output(True).set_data_type(cudnn.data_type(lib, feed[role].dtype))
        t[role] = out
    return graph, t


def describe_inference(lib, feed, cudnn_handle=None):
    """The inference graph of arrays shaped like ``feed``'s (role -> array) and its tensors by role."""
    graph = cudnn.new_graph(lib, feed["x"].dtype, cudnn_handle)
    t = {r: cudnn.tensor(lib, graph, feed[r]) for r in ("x", "mean", "inv_var", "scale", "bias")}
    y = graph.batchnorm_inference(input=t["x"], mean=t["mean"], inv_variance=t["inv_var"], scale=t["scale"],
                                  bias=t["bias"])
    y.set_output(True).set_data_type(cudnn.data_type(lib, feed["x"].dtype))
    t["y"] = y
    return graph, t


def forward_inference(lib, x, gamma, beta, mean, var, eps):
    """``gamma * (x - mean) / sqrt(var + eps) + beta`` per channel, or None when cuDNN refuses it."""
    import cupy
    if not 2 <= x.ndim <= _MAX_NDIM:
        return None
    x4, c = _as_4d(x), x.shape[1]
    f32 = numpy.float32
    feed = {"x": x4, "mean": _channel(mean.astype(f32, copy=False), c),
            "inv_var": _channel(((var.astype(f32) + f32(eps)) ** f32(-0.5)), c),
            "scale": _channel(gamma, c), "bias": _channel(beta, c), "y": cupy.empty(x4.shape, x.dtype)}
    switches = cudnn.flags()
    key = cudnn.graph_key("batchnorm_inference", (x4, feed["scale"]), (), switches)

    def make():
        graph, t = describe_inference(lib, feed, cudnn.handle(lib))
        return cudnn.build(lib, graph, t, switches, x.dtype)

    plan = cudnn.plan_for(lib, key, make)
    if plan is None:
        return None
    plan.run(lib, feed)
    return feed["y"].reshape(x.shape)
