"""cuDNN convolutions on CuPy arrays: forward, backward-data (also the transposed convolution) and
backward-weights; N-d (2-D first: cuDNN takes 1-D as 2-D with a unit axis), strided, padded, dilated
and grouped.

Each function returns None when cuDNN refuses the case under ``use_cudnn='auto'`` (the caller's CuPy
kernels then compute it). Arrays are (N, C, d...) here; inputs keep their own layout (row-major or
channels-last, told to cuDNN by their strides) and outputs are row-major.
"""
from __future__ import annotations

from kusari import cudnn
from kusari.utils import conv


def _as_2d(arrays, shapes):
    """1-D cases as 2-D ones (a unit leading spatial axis), which every cuDNN engine takes."""
    return ([None if a is None else a.reshape(a.shape[:2] + (1,) + a.shape[2:]) for a in arrays],
            [s[:2] + (1,) + tuple(s[2:]) for s in shapes])


def _geometry(nd, stride, pad, dilate):
    return tuple(conv.as_tuple(v, nd) for v in (stride, pad, dilate))


def post_padding(in_size, k_size, out_size, stride, pad, dilate) -> tuple:
    """Right padding that makes cuDNN's output ``out_size`` (more than ``pad`` only with cover_all)."""
    return tuple(max(p, (o - 1) * s + (k - 1) * d + 1 - i - p)
                 for i, k, o, s, p, d in zip(in_size, k_size, out_size, stride, pad, dilate))


def _lift(nd, stride, pad, post, dilate):
    if nd != 1:
        return stride, pad, post, dilate
    return (1,) + stride, (0,) + pad, (0,) + post, (1,) + dilate


def forward(lib, x, W, stride, pad, cover_all, dilate, groups):
    """``conv_forward`` by cuDNN: x (N, C, d...), W (C_out, C / groups, k...) -> y (N, C_out, o...)."""
    nd = x.ndim - 2
    if nd > 3:
        return None
    stride, pad, dilate = _geometry(nd, stride, pad, dilate)
    flags = conv.as_flags(cover_all, nd)
    outs = tuple(conv.get_conv_outsize(x.shape[2 + i], W.shape[2 + i], stride[i], pad[i], flags[i], dilate[i])
                 for i in range(nd))
    post = post_padding(x.shape[2:], W.shape[2:], outs, stride, pad, dilate)
    y_shape = (x.shape[0], W.shape[0]) + outs
    return _run("conv_fprop", lib, nd, {"x": x, "w": W}, "y", y_shape, stride, pad, post, dilate, groups)


def backward_data(lib, gy, W, stride, pad, dilate, groups, outsize):
    """``deconv_forward`` by cuDNN (the gradient of a convolution in its input): gy (N, C_in, d...),
    W (C_in, C_out / groups, k...) -> (N, C_out, *outsize)."""
    nd = gy.ndim - 2
    if nd > 3:
        return None
    stride, pad, dilate = _geometry(nd, stride, pad, dilate)
    post = post_padding(outsize, W.shape[2:], gy.shape[2:], stride, pad, dilate)
    x_shape = (gy.shape[0], W.shape[1] * groups) + tuple(outsize)
    return _run("conv_dgrad", lib, nd, {"dy": gy, "w": W}, "dx", x_shape, stride, pad, post, dilate, groups)


def backward_weights(lib, x, gy, ksize, stride, pad, dilate, groups):
    """``conv_weight_grad`` by cuDNN: x (N, C, d...), gy (N, C_out, o...) -> gW (C_out, C / groups, *ksize)."""
    nd = x.ndim - 2
    if nd > 3:
        return None
    stride, pad, dilate = _geometry(nd, stride, pad, dilate)
    post = post_padding(x.shape[2:], ksize, gy.shape[2:], stride, pad, dilate)
    w_shape = (gy.shape[1], x.shape[1] // groups) + tuple(ksize)
    return _run("conv_wgrad", lib, nd, {"x": x, "dy": gy}, "dw", w_shape, stride, pad, post, dilate, groups)


def describe(lib, op, inputs, out_role, out, geometry, cudnn_handle=None):
    """The graph of ``op`` ('conv_fprop', 'conv_dgrad' or 'conv_wgrad') on arrays shaped like ``inputs``
    (role -> array) writing ``out``, and its tensors by role; ``geometry`` is (stride, pre_padding,
    post_padding, dilation), each with one entry per spatial axis."""
    stride, pad, post, dilate = geometry
    dtype = out.dtype
    graph = cudnn.new_graph(lib, dtype, cudnn_handle)
    t = {r: cudnn.tensor(lib, graph, a) for r, a in inputs.items()}
    kwargs = dict(pre_padding=list(pad), post_padding=list(post), stride=list(stride), dilation=list(dilate))
    if op == "conv_fprop":
        result = graph.conv_fprop(image=t["x"], weight=t["w"], **kwargs)
    elif op == "conv_dgrad":
        result = graph.conv_dgrad(loss=t["dy"], filter=t["w"], **kwargs)
    else:
        result = graph.conv_wgrad(image=t["x"], loss=t["dy"], **kwargs)
    result.set_output(True).set_dim(list(out.shape)).set_stride(
        list(cudnn.layout_of(out.strides, out.dtype.itemsize))).set_data_type(cudnn.data_type(lib, dtype))
    t[out_role] = result
    return graph, t


def _run(op, lib, nd, inputs, out_role, out_shape, stride, pad, post, dilate, groups):
    """Build (once per key) and execute the graph of ``op``; the output array, or None if refused."""
    import cupy
    roles = list(inputs)
    arrays = [inputs[r] for r in roles]
    if nd == 1:
        arrays, (out_shape,) = _as_2d(arrays, [out_shape])
    stride, pad, post, dilate = _lift(nd, stride, pad, post, dilate)
    dtype = arrays[0].dtype
    out = cupy.empty(out_shape, dtype)
    switches = cudnn.flags()
    key = cudnn.graph_key(op, arrays, (stride, pad, post, dilate, groups, out_shape), switches)
    feed = dict(zip(roles, arrays))
    feed[out_role] = out

    def make():
        graph, t = describe(lib, op, dict(zip(roles, arrays)), out_role, out, (stride, pad, post, dilate),
                            cudnn.handle(lib))
        return cudnn.build(lib, graph, t, switches, dtype, time_with=feed)

    plan = cudnn.plan_for(lib, key, make)
    if plan is None:
        return None
    plan.run(lib, feed)
    return out.reshape(out.shape[:2] + out.shape[3:]) if nd == 1 else out
