"""Converters of kusari.functions.pooling: max and average pooling, unpooling, RoI pooling and RoIAlign."""
import numpy

from kusari.functions.pooling.average_pooling_nd import AveragePoolingND
from kusari.functions.pooling.max_pooling_nd import MaxPoolingND
from kusari.functions.pooling.roi_average_align_2d import ROIAverageAlign2D
from kusari.functions.pooling.roi_pooling_2d import ROIPooling2D
from kusari.functions.pooling.unpooling_nd import UnpoolingND
from kusari.onnx.converters import register_converter


def _window(ctx, geom):
    """ONNX kernel_shape, strides and pads giving kusari's output size (cover_all pads the end as needed)."""
    in_shape = ctx.in_arrays[0].shape[2:]
    ends = []
    for i, size in enumerate(in_shape):
        reach = (geom.outs[i] - 1) * geom.stride[i] + geom.ksize[i]
        ends.append(max(0, reach - size - geom.pad[i]))
    return {"kernel_shape": list(geom.ksize), "strides": list(geom.stride), "pads": list(geom.pad) + ends}


@register_converter(MaxPoolingND,
                    functions=("max_pooling_1d", "max_pooling_2d", "max_pooling_3d", "max_pooling_nd"))
def _max_pooling(ctx, node):
    """MaxPool with kusari's pads on both ends, ``cover_all`` as ``ceil_mode``, so that the output size follows
    dynamic spatial axes. Where a last window could lie wholly in the padding (pad + stride > ksize with
    ``cover_all``: kusari gives it 0, ONNX has no such window) the end pads are fixed at the traced sizes instead,
    and a traced window wholly in the padding is refused."""
    if node._return_indices:
        ctx.unsupported("return_indices=True")
    geom, cover_all = node._geom, node._args[4]
    if not cover_all or all(p + s <= k for k, s, p in zip(geom.ksize, geom.stride, geom.pad)):
        return ctx.add("MaxPool", ctx.inputs, kernel_shape=list(geom.ksize), strides=list(geom.stride),
                       pads=list(geom.pad) * 2, ceil_mode=int(bool(cover_all)))
    if geom.padding_only() is not None:
        ctx.unsupported(f"a window wholly in the padding (ksize={geom.ksize}, stride={geom.stride}, pad={geom.pad}, "
                        f"input {geom.dims}): kusari gives it 0, ONNX's MaxPool has no such window")
    if any(ctx.dynamic()[2:]):
        ctx.unsupported(f"cover_all with pad + stride > ksize (ksize={geom.ksize}, stride={geom.stride}, "
                        f"pad={geom.pad}) on a dynamic spatial axis: its last window may lie wholly in the padding, "
                        "which kusari keeps (as 0) and ONNX's ceil_mode drops")
    return ctx.add("MaxPool", ctx.inputs, **_window(ctx, geom))


@register_converter(AveragePoolingND,
                    functions=("average_pooling_1d", "average_pooling_2d", "average_pooling_3d",
                               "average_pooling_nd"))
def _average_pooling(ctx, node):
    window = _window(ctx, node._geom)
    if window["pads"][len(window["pads"]) // 2:] != list(node._geom.pad):
        ctx.unsupported("a window reaching past the padding")
    return ctx.add("AveragePool", ctx.inputs, count_include_pad=int(node._pad_value is not None), **window)


@register_converter(UnpoolingND, functions=("unpooling_1d", "unpooling_2d", "unpooling_3d", "unpooling_nd"))
def _unpooling(ctx, node):
    """Windows that tile the output (stride = ksize, no pad): each value repeated over its window (nearest
    Resize, by scales where the output is always the tiling, so that it follows dynamic spatial axes), then cut
    or zero-padded to the output size (fixed at the traced sizes)."""
    geom = node._geom
    if geom.stride != geom.ksize or any(geom.pad):
        ctx.unsupported(f"overlapping or padded windows (ksize={geom.ksize}, stride={geom.stride}, pad={geom.pad})")
    x = ctx.inputs[0]
    if node._args[3] is None and not node._args[4]:   # no outsize, no cover_all: always the tiling, any size
        scales = ctx.const([1, 1] + list(geom.ksize), numpy.float32)
        return ctx.add("Resize", [x, "", scales], mode="nearest", coordinate_transformation_mode="asymmetric",
                       nearest_mode="floor")
    in_shape = ctx.in_arrays[0].shape
    tiled = [n * k for n, k in zip(in_shape[2:], geom.ksize)]
    leading = ctx.add("Slice", [ctx.add("Shape", [x]), ctx.ints([0]), ctx.ints([2])])
    sizes = ctx.add("Concat", [leading, ctx.ints(tiled)], axis=0)
    y = ctx.add("Resize", [x, "", "", sizes], mode="nearest", coordinate_transformation_mode="asymmetric",
                nearest_mode="floor")
    out = list(geom.dims)
    if any(o < t for o, t in zip(out, tiled)):
        axes = list(range(2, 2 + len(out)))
        y = ctx.add("Slice", [y, ctx.ints([0] * len(out)), ctx.ints(out), ctx.ints(axes)])
    if any(o > t for o, t in zip(out, tiled)):
        extra = [max(0, o - t) for o, t in zip(out, tiled)]
        y = ctx.add("Pad", [y, ctx.ints([0] * (2 + len(out)) + [0, 0] + extra)])
    return y


@register_converter(ROIPooling2D, functions=("roi_pooling_2d",))
def _roi_pooling(ctx, node):
    """Fast R-CNN's RoI max pooling is ONNX's MaxRoiPool: rows (batch, x_min, y_min, x_max, y_max), rounded
    boxes with ends included, empty bins 0."""
    if ctx.opset >= 22:   # onnxruntime 1.32 runs MaxRoiPool up to its opset-21 form only
        ctx.unsupported(f"MaxRoiPool has no ONNX Runtime kernel at opset {ctx.opset}; export with opset_version=21")
    return ctx.add("MaxRoiPool", ctx.inputs, pooled_shape=[node._outh, node._outw], spatial_scale=node._scale)


@register_converter(ROIAverageAlign2D, functions=("roi_average_align_2d",))
def _roi_average_align(ctx, node):
    """Mask R-CNN's RoIAlign is ONNX's RoiAlign (average) without the half-pixel offset: rois reordered
    from (y_min, x_min, y_max, x_max) to (x1, y1, x2, y2), roi_indices as int64."""
    ratio_h, ratio_w = node._sampling_ratio
    if ratio_h != ratio_w:
        ctx.unsupported(f"sampling_ratio={node._sampling_ratio} (RoiAlign takes one ratio for both axes)")
    if not 16 <= ctx.opset <= 21:   # the transformation mode came at 16; onnxruntime 1.32 runs RoiAlign to 21
        ctx.unsupported(f"RoiAlign in kusari's form runs in ONNX Runtime at opsets 16 to 21, not {ctx.opset}; "
                        "export with opset_version=21")
    x, rois, indices = ctx.inputs
    boxes = ctx.add("Gather", [rois, ctx.ints([1, 0, 3, 2])], axis=1)
    batch = ctx.add("Cast", [indices], to=ctx.tensor_type(numpy.int64))
    return ctx.add("RoiAlign", [x, boxes, batch], mode="avg", output_height=node._outh, output_width=node._outw,
                   sampling_ratio=ratio_h or 0, spatial_scale=node._scale,
                   coordinate_transformation_mode="output_half_pixel")
