"""Converters of kusari.functions.array: shapes, axes, indexing, joining and splitting."""
import numpy

from kusari.functions.array.broadcast import BroadcastTo
from kusari.functions.array.cast import Cast
from kusari.functions.array.concat import Concat
from kusari.functions.array.copy import Copy
from kusari.functions.array.depth2space import Depth2Space
from kusari.functions.array.flip import Flip
from kusari.functions.array.get_item import GetItem
from kusari.functions.array.pad import Pad
from kusari.functions.array.permutate import Permutate
from kusari.functions.array.repeat import Repeat
from kusari.functions.array.reshape import Reshape
from kusari.functions.array.resize_images import ResizeImages
from kusari.functions.array.select_item import SelectItem
from kusari.functions.array.separate import Separate
from kusari.functions.array.space2depth import Space2Depth
from kusari.functions.array.split_axis import SplitAxis
from kusari.functions.array.stack import Stack
from kusari.functions.array.sum_to import SumTo
from kusari.functions.array.tile import Tile
from kusari.functions.array.transpose import Transpose
from kusari.functions.array.transpose_sequence import TransposeSequence
from kusari.functions.array.where import Where
from kusari.onnx.converters import register_converter

_INT64_MAX, _INT64_MIN = 2 ** 63 - 1, -2 ** 63


@register_converter(Reshape, functions=("reshape", "flatten", "expand_dims", "squeeze"))
def _reshape(ctx, node):
    return ctx.add("Reshape", [ctx.inputs[0], ctx.shape_for(ctx.out_arrays[0].shape)])


@register_converter(Transpose, functions=("transpose", "swapaxes", "moveaxis", "rollaxis"))
def _transpose(ctx, node):
    ndim = ctx.in_arrays[0].ndim
    perm = list(range(ndim))[::-1] if node._axes is None else [int(a) % ndim for a in node._axes]
    dims = ctx.dims(ctx.inputs[0])
    if dims is not None:
        ctx.out_dims[0] = tuple(dims[p] for p in perm)
    return ctx.add("Transpose", ctx.inputs, perm=perm)


@register_converter(BroadcastTo, functions=("broadcast_to", "broadcast"))
def _broadcast_to(ctx, node):
    if ctx.probed is not None:
        shape = ctx.runtime_shape(node._shape, ctx.probed[1][0])
        if shape is None:
            ctx.unsupported(f"broadcast to {node._shape}: a size changes with the dynamic axes and follows none "
                            "of the inputs' axes")
        return ctx.add("Expand", [ctx.inputs[0], shape])
    # Expand broadcasts both ways: a 1 keeps the input's (possibly dynamic) size
    shape = list(node._shape)
    in_shape, dyn = ctx.in_arrays[0].shape, ctx.dynamic(0)
    in_dims = ctx.dims(ctx.inputs[0]) or in_shape
    lead = len(shape) - len(in_shape)
    dims = list(shape)
    for i, d in enumerate(dyn):
        if d:
            shape[lead + i], dims[lead + i] = 1, in_dims[i]
    ctx.out_dims[0] = tuple(dims)
    return ctx.add("Expand", [ctx.inputs[0], ctx.ints(shape)])


@register_converter(SumTo, functions=("sum_to",))
def _sum_to(ctx, node):
    in_shape, shape = ctx.in_arrays[0].shape, node._shape
    lead = len(in_shape) - len(shape)
    y = ctx.inputs[0]
    if lead:
        y = ctx.reduce("ReduceSum", y, range(lead), False)
    kept = [i for i, s in enumerate(shape) if s == 1 and in_shape[lead + i] != 1]
    return ctx.reduce("ReduceSum", y, kept, True) if kept else ctx.add("Identity", [y])


@register_converter(Concat, functions=("concat", "hstack", "vstack", "dstack"))
def _concat(ctx, node):
    return ctx.add("Concat", ctx.inputs, axis=int(node._axis))


@register_converter(Stack, functions=("stack",))
def _stack(ctx, node):
    axes = ctx.ints([node._axis])
    return ctx.add("Concat", [ctx.add("Unsqueeze", [x, axes]) for x in ctx.inputs], axis=int(node._axis))


@register_converter(SplitAxis, functions=("split_axis",))
def _split_axis(ctx, node):
    sizes = [y.shape[node._axis] for y in ctx.out_arrays]
    out = ctx.add("Split", [ctx.inputs[0], ctx.ints(sizes)], n_outputs=len(sizes), axis=int(node._axis))
    return [out] if len(sizes) == 1 else out


@register_converter(Separate, functions=("separate",))
def _separate(ctx, node):
    axis = int(node._axis)
    n = ctx.in_arrays[0].shape[axis]
    parts = ctx.add("Split", [ctx.inputs[0], ctx.ints([1] * n)], n_outputs=n, axis=axis) if n > 1 else [ctx.inputs[0]]
    squeeze = ctx.ints([axis])
    return [ctx.add("Squeeze", [p, squeeze]) for p in parts]


@register_converter(TransposeSequence, functions=("transpose_sequence",))
def _transpose_sequence(ctx, node):
    """Time-major from batch-major: output t stacks row t of every sequence longer than t."""
    lengths = [a.shape[0] for a in ctx.in_arrays]
    axis0 = ctx.ints([0])
    outputs = []
    for t in range(len(ctx.out_arrays)):
        rows = [ctx.add("Slice", [x, ctx.ints([t]), ctx.ints([t + 1]), axis0])
                for x, n in zip(ctx.inputs, lengths) if n > t]
        outputs.append(ctx.add("Concat", rows, axis=0) if len(rows) > 1 else ctx.add("Identity", rows))
    return outputs


@register_converter(Permutate, functions=("permutate",))
def _permutate(ctx, node):
    indices = numpy.asarray(node._indices).reshape(-1)
    if node._inv:
        indices = numpy.argsort(indices)
    return ctx.add("Gather", [ctx.inputs[0], ctx.ints(indices)], axis=int(node._axis))


@register_converter(Cast, functions=("cast",))
def _cast(ctx, node):
    return ctx.add("Cast", ctx.inputs, to=ctx.tensor_type(ctx.out_arrays[0].dtype))


@register_converter(Copy, functions=("copy",))
def _copy(ctx, node):
    return ctx.add("Identity", ctx.inputs)


@register_converter(Where, functions=("where",))
def _where(ctx, node):
    return ctx.add("Where", ctx.inputs)


@register_converter(Tile, functions=("tile",))
def _tile(ctx, node):
    reps = (node._reps,) if isinstance(node._reps, int) else tuple(node._reps)
    x, ndim = ctx.inputs[0], ctx.in_arrays[0].ndim
    if len(reps) > ndim:
        x = ctx.add("Reshape", [x, ctx.ints((1,) * (len(reps) - ndim) + ctx.in_arrays[0].shape)])
    reps = (1,) * (max(ndim, len(reps)) - len(reps)) + reps
    return ctx.add("Tile", [x, ctx.ints(reps)])


@register_converter(Flip, functions=("flip", "fliplr", "flipud"))
def _flip(ctx, node):
    return ctx.add("Slice", [ctx.inputs[0], ctx.ints([-1]), ctx.ints([_INT64_MIN]), ctx.ints([node._axis]),
                             ctx.ints([-1])])


@register_converter(Pad, functions=("pad",))
def _pad(ctx, node):
    modes = {"constant": "constant", "edge": "edge", "reflect": "reflect", "wrap": "wrap"}
    if node._mode not in modes:
        ctx.unsupported(f"mode={node._mode!r} (ONNX Pad has constant, edge, reflect and wrap)")
    widths = numpy.asarray(node._widths).reshape(-1, 2)
    pads = ctx.ints(list(widths[:, 0]) + list(widths[:, 1]))
    inputs = [ctx.inputs[0], pads]
    if node._mode == "constant":
        value = numpy.asarray(node._constant_values)
        if value.size != 1:
            ctx.unsupported("constant_values per axis (ONNX Pad takes one value)")
        inputs.append(ctx.const(value.reshape(())))
    if node._mode == "wrap" and ctx.opset < 19:
        ctx.unsupported(f"mode='wrap' needs opset 19 or newer, got opset {ctx.opset}")
    return ctx.add("Pad", inputs, mode=modes[node._mode])


@register_converter(Depth2Space, functions=("depth2space",))
def _depth2space(ctx, node):
    return ctx.add("DepthToSpace", ctx.inputs, blocksize=int(node._r), mode="DCR")


@register_converter(Space2Depth, functions=("space2depth",))
def _space2depth(ctx, node):
    return ctx.add("SpaceToDepth", ctx.inputs, blocksize=int(node._r))


@register_converter(GetItem, functions=("get_item",))
def _get_item(ctx, node):
    """Basic indexing (ints, slices, None, Ellipsis) as Slice + Squeeze + Unsqueeze; one integer array as Gather."""
    x_shape = ctx.in_arrays[0].shape
    in_dims = ctx.dims(ctx.inputs[0]) or x_shape
    slices = list(node.slices)
    arrays = [i for i, s in enumerate(slices) if hasattr(s, "ndim") and s.ndim > 0]
    n_axes = sum(1 for s in slices if s is not None and s is not Ellipsis)
    ellipsis = [i for i, s in enumerate(slices) if s is Ellipsis]
    if ellipsis:
        slices[ellipsis[0]:ellipsis[0] + 1] = [slice(None)] * (len(x_shape) - n_axes)
    slices += [slice(None)] * (len(x_shape) - sum(1 for s in slices if s is not None))
    if len(arrays) > 1:
        ctx.unsupported("more than one integer array index (advanced indexing)")
    starts, ends, axes, steps, squeeze, unsqueeze, out_dims = [], [], [], [], [], [], []
    axis = 0
    gather = None
    for s in slices:
        if s is None:
            unsqueeze.append(len(out_dims))
            out_dims.append(1)
            continue
        size = x_shape[axis]
        if isinstance(s, slice):
            if s != slice(None) and s != slice(None, None, 1):
                start, stop, step = s.indices(size)
                starts.append(start)
                ends.append(_INT64_MIN if step < 0 and stop < 0 else stop)
                axes.append(axis)
                steps.append(step)
                out_dims.append(len(range(start, stop, step)))
            else:
                out_dims.append(in_dims[axis])
        elif hasattr(s, "ndim") and s.ndim > 0:
            gather = (axis, len(out_dims), numpy.asarray(s))
            out_dims.append(None)
        else:
            i = int(s) % size
            starts.append(i), ends.append(i + 1), axes.append(axis), steps.append(1)
            squeeze.append(axis)
        axis += 1
    y = ctx.inputs[0]
    if axes:
        y = ctx.add("Slice", [y, ctx.ints(starts), ctx.ints(ends), ctx.ints(axes), ctx.ints(steps)])
    if gather is not None:
        g_axis, out_at, index = gather
        y = ctx.add("Gather", [y, ctx.ints(index.reshape(-1)) if index.ndim == 1 else ctx.const(index, numpy.int64)],
                    axis=g_axis)
        out_dims[out_at:out_at + 1] = list(index.shape)
    if squeeze:
        if gather is not None:
            ctx.unsupported("an integer array index mixed with integer indices")
        y = ctx.add("Squeeze", [y, ctx.ints(squeeze)])
    if unsqueeze:
        y = ctx.add("Unsqueeze", [y, ctx.ints(unsqueeze)])
    if y == ctx.inputs[0]:
        y = ctx.add("Identity", [y])
    ctx.out_dims[0] = tuple(out_dims)
    return y


@register_converter(SelectItem, functions=("select_item",))
def _select_item(ctx, node):
    x, t = ctx.inputs
    index = ctx.add("Unsqueeze", [ctx.add("Cast", [t], to=ctx.tensor_type(numpy.int64)), ctx.ints([1])])
    return ctx.add("Squeeze", [ctx.add("GatherElements", [x, index], axis=1), ctx.ints([1])])


@register_converter(Repeat, functions=("repeat",))
def _repeat(ctx, node):
    x, axis = ctx.inputs[0], node._axis
    if axis is None:
        x, axis = ctx.add("Reshape", [x, ctx.ints([-1])]), 0
    if ctx.dynamic(0)[axis] if node._axis is not None else any(ctx.dynamic(0)):
        ctx.unsupported("repeating along a dynamic axis")
    n = ctx.in_arrays[0].size if node._axis is None else ctx.in_arrays[0].shape[axis]
    return ctx.add("Gather", [x, ctx.ints(numpy.repeat(numpy.arange(n), node._counts))], axis=int(axis))


# kusari's (mode, align_corners) as ONNX Resize's coordinate transformation and rounding
_RESIZE = {("bilinear", True): ("linear", "align_corners", "round_prefer_floor"),
           ("bilinear", False): ("linear", "half_pixel", "round_prefer_floor"),
           ("nearest", True): ("nearest", "align_corners", "round_prefer_ceil"),
           ("nearest", False): ("nearest", "asymmetric", "floor")}


@register_converter(ResizeImages, functions=("resize_images",))
def _resize_images(ctx, node):
    key = (node._mode, bool(node._align_corners))
    if key not in _RESIZE:
        ctx.unsupported(f"mode={node._mode!r}")
    mode, transform, rounding = _RESIZE[key]
    x = ctx.inputs[0]
    batch_channels = ctx.add("Slice", [ctx.add("Shape", [x]), ctx.ints([0]), ctx.ints([2])])
    sizes = ctx.add("Concat", [batch_channels, ctx.ints(ctx.out_arrays[0].shape[2:])], axis=0)
    return ctx.add("Resize", [x, "", "", sizes], mode=mode, coordinate_transformation_mode=transform,
                   nearest_mode=rounding)
