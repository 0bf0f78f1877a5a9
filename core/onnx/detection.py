"""Single-shot detectors (kusari.vision's SSD and YOLO) exported with their box decoding and ONNX's NonMaxSuppression.

``decoder(model)`` is the model's forward followed by its box decoding, written with kusari.functions so
that ``export`` traces it; ``export_detector`` exports that and, by default, appends ONNX's
``NonMaxSuppression`` with the thresholds and visiting order of kusari's ``predict``. What stays in
Python: preparing the images (resizing, mean subtraction, YOLO's letterbox canvas) and mapping the
boxes back to each original image, which depend on each image's size.
"""
import os
from typing import Callable

import numpy
import onnx
from onnx import TensorProto, helper, numpy_helper

import kusari.functions as F
from kusari.onnx.export import export


def decoder(model) -> Callable:
    """``decode(x) -> (bbox, score)``: ``model``'s forward and its box decoding, as ``predict`` computes them.

    Parameters
    ----------
    model : kusari.vision SSD300/SSD512, YOLOv2 (or another YOLOv2Base) or YOLOv3

    Returns
    -------
    callable
        ``x`` (B, 3, insize, insize), prepared as ``predict`` prepares images, to ``bbox`` (B, K, 4)
        ``(y_min, x_min, y_max, x_max)`` in input pixels and ``score`` (B, K, n_fg_class): SSD's softmax
        over the classes without the background; YOLOv2's sigmoid objectness times the softmax over the
        classes; YOLOv3's sigmoid objectness times each class's sigmoid.
    """
    from kusari.vision.links.model.ssd import SSD
    from kusari.vision.links.model.yolo import YOLOv2Base, YOLOv3
    if isinstance(model, SSD):
        coder = model.coder
        return lambda x: _ssd_decode(*model(x), coder._default_bbox, coder._variance)
    if isinstance(model, YOLOv2Base):   # anchors in grid cells, one grid
        step = numpy.full(len(model._default_bbox), model.insize / model.extractor.grid)
        return lambda x: _yolo_decode(*model(x), model._default_bbox, step, step,
                                      lambda confs: F.softmax(confs, axis=2))
    if isinstance(model, YOLOv3):       # anchor sizes in pixels, centres in each grid's cells
        return lambda x: _yolo_decode(*model(x), model._default_bbox, model._step, numpy.ones(1), F.sigmoid)
    raise TypeError(f"decoder: model must be a kusari.vision SSD, YOLOv2Base or YOLOv3, got {type(model).__name__}")


def _corners(center, size):
    """(B, K, 2) centres and sizes -> (B, K, 4) corners ``(y_min, x_min, y_max, x_max)``."""
    low = center - size / 2
    return F.concat((low, low + size), axis=2)


def _ssd_decode(mb_locs, mb_confs, default_bbox, variance):
    """MultiboxCoder.decode's boxes and scores, before thresholds and NMS, for a batch."""
    dtype = mb_locs.dtype
    center, size = default_bbox[:, :2].astype(dtype), default_bbox[:, 2:].astype(dtype)
    bbox = _corners(center + mb_locs[:, :, :2] * variance[0] * size,
                    size * F.exp(mb_locs[:, :, 2:] * variance[1]))
    return bbox, F.softmax(mb_confs, axis=2)[:, :, 1:]


def _yolo_decode(locs, objs, confs, default_bbox, center_step, size_step, classes):
    """YOLO's ``_decode`` boxes and scores, before thresholds and NMS, for a batch: ``default_bbox`` (K, 4)
    centres and sizes scaled to input pixels by ``center_step`` and ``size_step`` ((K,) or (1,));
    ``classes`` maps the class logits (B, K, C) to probabilities."""
    dtype = locs.dtype
    center = (default_bbox[:, :2].astype(dtype) + F.sigmoid(locs[:, :, :2])) * center_step.astype(dtype)[:, None]
    size = default_bbox[:, 2:].astype(dtype) * F.exp(locs[:, :, 2:]) * size_step.astype(dtype)[:, None]
    return _corners(center, size), F.expand_dims(F.sigmoid(objs), 2) * classes(confs)


def export_detector(model, x, filename=None, nms: bool = True, nms_thresh=None, score_thresh=None,
                    opset_version=None) -> onnx.ModelProto:
    """Export an SSD or YOLO detector with its box decoding and (``nms=True``) its per-class suppression.

    Parameters
    ----------
    model : kusari.vision SSD300/SSD512, YOLOv2 or YOLOv3
    x : array, shape (B, 3, insize, insize)
        Example images prepared as ``predict`` prepares them; axis 0 is dynamic in the file.
    filename : str, path or file object, optional
    nms : bool
        Append ONNX's ``NonMaxSuppression``; otherwise the file returns every anchor's box and scores.
    nms_thresh, score_thresh : float, optional
        Default: the model's (its preset). ``nms_thresh=None`` with a model whose ``nms_thresh`` is None
        suppresses nothing, as ``predict`` does.
    opset_version : int, optional

    Returns
    -------
    onnx.ModelProto
        Input ``image``. With ``nms``: outputs ``bbox`` (R, 4) float32 in input pixels, ``label`` (R,)
        int32, ``score`` (R,) float32 and ``image_index`` (R,) int32, by image, then class, then descending
        score (the order of ``predict``'s lists). Without: ``bbox`` (B, K, 4) and ``score`` (B, K, n_fg_class).

    A box is kept for a class when its score is at least ``score_thresh`` and its IoU with every box
    kept before it is below ``nms_thresh``; boxes of equal score are visited by descending index: kusari's
    rules, which ONNX's strict comparisons and ascending visit meet by thresholds one float32 step lower and
    the anchors taken in reverse order.
    """
    decode = decoder(model)
    size = model.insize
    shape = tuple(getattr(x, "shape", ()))
    if len(shape) != 4 or shape[1:] != (3, size, size):
        raise ValueError(f"export_detector: x must have shape (B, 3, {size}, {size}) for {type(model).__name__}, "
                         f"got {shape}")
    nms_thresh = model.nms_thresh if nms_thresh is None else nms_thresh
    score_thresh = model.score_thresh if score_thresh is None else score_thresh
    if nms and nms_thresh is not None and not 0 < nms_thresh <= 1:
        raise ValueError(f"export_detector: nms_thresh must be in (0, 1] (IoU >= 0 suppresses every box after the "
                         f"first, which NonMaxSuppression cannot express), got {nms_thresh!r}")
    names = ["bbox", "score"] if not nms else ["decoded_bbox", "decoded_score"]
    proto = export(decode, x, filename=None if nms else filename, opset_version=opset_version,
                   input_names=["image"], output_names=names,
                   dynamic_axes={"image": {0: "batch"}, names[0]: {0: "batch"}, names[1]: {0: "batch"}})
    if not nms:
        return proto
    _append_nms(proto, *names, n_box=proto.graph.output[0].type.tensor_type.shape.dim[1].dim_value,
                nms_thresh=nms_thresh, score_thresh=score_thresh)
    onnx.checker.check_model(proto, full_check=True)
    if hasattr(filename, "write"):
        filename.write(proto.SerializeToString())
    elif filename is not None:
        with open(os.fspath(filename), "wb") as f:
            f.write(proto.SerializeToString())
    return proto


def _below(value) -> numpy.ndarray:
    """The float32 just below ``value``: ``s > _below(t)`` is ``s >= t`` for float32 ``s``."""
    return numpy.nextafter(numpy.float32(value), numpy.float32(-numpy.inf)).reshape(1)


def _append_nms(proto, bbox, score, n_box: int, nms_thresh, score_thresh):
    """Replace the outputs ``bbox`` (B, K, 4) and ``score`` (B, K, C) of ``proto`` by NonMaxSuppression's picks."""
    added = set()

    def const(name, value):
        if name not in added:
            added.add(name)
            proto.graph.initializer.append(numpy_helper.from_array(numpy.asarray(value), name))
        return name

    def node(op, inputs, output, **attrs):
        proto.graph.node.append(helper.make_node(op, inputs, [output], name=f"nms/{output}", **attrs))
        return output

    # ONNX visits equal scores by ascending index; kusari by descending: reverse the anchors, then map back
    last = numpy.iinfo(numpy.int64).min
    rev = {n: node("Slice", [n, const("nms/start", [-1]), const("nms/end", [last]), const("nms/axis", [1]),
                              const("nms/step", [-1])], f"nms/{n}_reversed") for n in (bbox, score)}
    scores = node("Transpose", [rev[score]], "nms/scores", perm=[0, 2, 1])
    iou = _below(nms_thresh) if nms_thresh is not None else numpy.ones(1, numpy.float32)   # IoU > 1: never
    picks = node("NonMaxSuppression", [rev[bbox], scores, const("nms/max_per_class", [n_box]),
                                       const("nms/iou_threshold", iou),
                                       const("nms/score_threshold", _below(score_thresh))],
                 "nms/picks", center_point_box=0)
    image, cls, rev_index = (node("Gather", [picks, const(f"nms/column{k}", [k])], f"nms/{name}", axis=1)
                             for k, name in enumerate(("image", "class", "reversed_index")))
    index = node("Sub", [const("nms/last_anchor", numpy.array([[n_box - 1]], numpy.int64)), rev_index], "nms/index")
    node("GatherND", [bbox, node("Concat", [image, index], "nms/image_anchor", axis=1)], "bbox")
    node("GatherND", [score, node("Concat", [image, index, cls], "nms/image_anchor_class", axis=1)], "score")
    for name, column in (("label", cls), ("image_index", image)):
        squeezed = node("Squeeze", [column, const(f"nms/{name}_axis", [1])], f"nms/{name}_squeezed")
        node("Cast", [squeezed], name, to=TensorProto.INT32)
    del proto.graph.output[:]
    for name, elem, dims in (("bbox", TensorProto.FLOAT, ["detections", 4]), ("label", TensorProto.INT32,
                             ["detections"]), ("score", TensorProto.FLOAT, ["detections"]),
                             ("image_index", TensorProto.INT32, ["detections"])):
        proto.graph.output.append(helper.make_tensor_value_info(name, elem, dims))
