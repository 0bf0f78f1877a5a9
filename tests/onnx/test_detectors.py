"""Detectors in ONNX Runtime: Faster R-CNN's extractors and RoI heads (VGG16 and FPN ResNet), and SSD's and
YOLO's box decoding with NonMaxSuppression (``kusari.onnx.export_detector``) against ``predict``."""
import io

import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L

from .conftest import run_onnx

vision = pytest.importorskip("kusari.vision", reason="the detectors need the [vision] extra")

rng = numpy.random.default_rng(11)


def _rois(n, size, image_count, extent=(4, 40)):
    """``n`` boxes ``(y_min, x_min, y_max, x_max)`` inside a ``size`` image (some past its edge) and their images."""
    low = rng.uniform(-4, numpy.array(size) - 4, (n, 2))
    boxes = numpy.concatenate([low, low + rng.uniform(*extent, (n, 2))], axis=1).astype(numpy.float32)
    return boxes, rng.integers(0, image_count, n).astype(numpy.int32)


def test_vgg16_roi_pooling_rows_as_a_function_of_rois():
    """FasterRCNNVGG16's head pools rows assembled with kusari.functions, so rois and roi_indices are graph inputs."""
    import kusari.onnx
    from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import roi_pooling_2d_yx
    features = rng.standard_normal((2, 3, 8, 10)).astype(numpy.float32)
    rois, indices = _rois(6, (128, 160), 2)
    proto = kusari.onnx.export(lambda x, r, i: roi_pooling_2d_yx(x, r, i, 3, 2, 1 / 16), (features, rois, indices),
                               opset_version=21, dynamic_axes={"Input_1": {0: "roi"}, "Input_2": {0: "roi"}})
    assert [n.op_type for n in proto.graph.node].count("MaxRoiPool") == 1
    for n in (6, 9):
        rois, indices = _rois(n, (128, 160), 2)
        got, = run_onnx(proto, {"Input_0": features, "Input_1": rois, "Input_2": indices})
        numpy.testing.assert_array_equal(got, roi_pooling_2d_yx(features, rois, indices, 3, 2, 1 / 16).array)


@pytest.mark.slow
def test_faster_rcnn_vgg16_head(check):
    """VGG16RoIHead (RoI max pooling 7x7, fc6, fc7, cls_loc, score) as a function of (features, rois, roi_indices);
    the proposals come from the RPN in Python."""
    from kusari.vision.links.model.faster_rcnn.faster_rcnn_vgg import VGG16RoIHead
    head = VGG16RoIHead(4, roi_size=7, spatial_scale=1 / 16)

    def inputs(n):   # n RoIs on n // 2 images of 96x128 pixels (6x8 features)
        rois, indices = _rois(n, (96, 128), n // 2, extent=(8, 90))
        return rng.standard_normal((n // 2, 512, 6, 8)).astype(numpy.float32), rois, indices
    # atol: fc6 sums 25,088 products of O(1) features and weights: float32 reorderings move it by ~1e-5
    proto = check(head, inputs, batches=(5, 7), opset_version=21, atol=1e-4, dim_names=["image", "roi", "roi"])
    assert "MaxRoiPool" in [n.op_type for n in proto.graph.node]


@pytest.mark.slow
def test_faster_rcnn_vgg16_extractor_at_any_image_size():
    """Faster R-CNN scales each image to its own size: the extractor's file takes any height and width (its
    poolings' cover_all as ceil_mode), here with odd sizes on the way down (200 -> 100 -> 50 -> 25 -> 13)."""
    import kusari.onnx
    extractor = vision.links.FasterRCNNVGG16(n_fg_class=3).extractor
    proto = kusari.onnx.export(extractor, rng.uniform(0, 255, (1, 3, 64, 96)).astype(numpy.float32),
                               dynamic_axes={"Input_0": {0: "n", 2: "h", 3: "w"}})
    for shape in ((1, 3, 64, 96), (2, 3, 96, 80), (1, 3, 200, 328)):
        x = rng.uniform(0, 255, shape).astype(numpy.float32)
        got, = run_onnx(proto, {"Input_0": x})
        with kusari.using_config("train", False):
            want = extractor(x).array
        assert got.shape == want.shape, (shape, got.shape, want.shape)
        # random weights give features near 1e-4: atol relative to their scale
        numpy.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4 * numpy.abs(want).max(), err_msg=str(shape))


def _fpn_model():
    model = vision.links.MaskRCNNFPNResNet50(n_fg_class=3)   # Faster R-CNN's FPN with the mask head too
    images = rng.uniform(0, 255, (2, 3, 64, 96)).astype(numpy.float32)
    with kusari.using_config("train", False):
        hs = [h.array for h in model.extractor(images)]
    # the heads see maps of unit scale (random weights give the pyramid values up to 1e4), so that atol 1e-5 means
    # something for their outputs
    return model, [h / h.std() for h in hs]


def _fpn_head_inputs(hs, counts):
    """The first four levels' maps, each level's RoIs (``counts[l]`` of them, sized for level ``l``) and images."""
    rois, indices = zip(*[_rois(k, (64, 96), 2, extent=(16 << l, 32 << l)) for l, k in enumerate(counts)])
    return tuple(hs[:4]) + rois + indices


def _fpn_head(head):
    return lambda *a: head(list(a[:4]), list(a[4:8]), list(a[8:12]))


FPN_DIMS = [None] * 4 + [f"rois{l}" for l in range(4)] * 2   # maps fixed; each level's RoI count its own axis


@pytest.mark.slow
def test_faster_rcnn_fpn_resnet50_extractor_rpn_and_heads(check):
    """Mask R-CNN's FPN ResNet-50 (FasterRCNNFPNResNet50's links and a mask head): the pyramid with the RPN's
    offsets and logits in one graph (any batch and image size), then BboxHead and MaskHead as functions of (maps,
    per-level rois, per-level roi_indices); RoIAlign at opset 21 (ONNX Runtime's last)."""
    import kusari.onnx
    model, hs = _fpn_model()

    def pyramid_and_rpn(x):
        hs = model.extractor(x)
        locs, confs = model.rpn(hs)
        return tuple(hs) + tuple(locs) + tuple(confs)
    # the pyramid's values reach 3e3 with random weights: atol 5e-2 is 2e-5 of that (summation order moves ~1e-5)
    check(pyramid_and_rpn, lambda n: (rng.uniform(0, 255, (n, 3, 64, 96)).astype(numpy.float32),), batches=(1, 2),
          atol=5e-2)
    # any height and width that are multiples of 32, as prepare pads them (the export's probe grows them by 32)
    proto = kusari.onnx.export(pyramid_and_rpn, rng.uniform(0, 255, (1, 3, 128, 192)).astype(numpy.float32),
                               dynamic_axes={"Input_0": {0: "n", 2: "h", 3: "w"}})
    for shape in ((2, 3, 64, 96), (1, 3, 192, 256)):
        x = rng.uniform(0, 255, shape).astype(numpy.float32)
        got = run_onnx(proto, {"Input_0": x})
        with kusari.using_config("train", False):
            want = [y.array for y in pyramid_and_rpn(x)]
        assert [g.shape for g in got] == [w.shape for w in want], shape
        for g, w in zip(got, want):
            numpy.testing.assert_allclose(g, w, rtol=1e-4, atol=2e-5 * numpy.abs(w).max(), err_msg=str(shape))

    # the mask head's logits reach 10 through four 3x3 convolutions of 256 channels and a deconvolution: atol 1e-4
    for head, atol in ((model.bbox_head, 1e-5), (model.mask_head, 1e-4)):
        proto = check(_fpn_head(head), lambda n: _fpn_head_inputs(hs, (n, n + 1, n + 2, n)), batches=(2, 4),
                      opset_version=21, atol=atol, dim_names=FPN_DIMS)
        assert [n.op_type for n in proto.graph.node].count("RoiAlign") == 4
        # a level without RoIs at run time: ONNX pools none there, kusari skips the level
        inputs = _fpn_head_inputs(hs, (3, 0, 2, 1))
        got = run_onnx(proto, {f"Input_{i}": a for i, a in enumerate(inputs)})
        with kusari.using_config("train", False):
            want = _fpn_head(head)(*inputs)
        want = want if isinstance(want, tuple) else (want,)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            numpy.testing.assert_allclose(g, w.array, rtol=1e-4, atol=atol)


class _TinyExtractor(kusari.Chain):
    """Two feature maps of a 32x32 image (8x8 and 4x4) for a fast SSD."""
    insize = 32
    grids = (8, 4)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 8, 3, stride=4, pad=1)
            self.conv2 = L.Convolution2D(8, 8, 3, stride=2, pad=1)

    def forward(self, x):
        h1 = F.relu(self.conv1(x))
        return [h1, F.relu(self.conv2(h1))]


def _seeded(model, head, head_scale):
    """``model`` with weights N(0, 1/fan_in) from a seeded generator (``head``'s times ``head_scale``, so that
    scores spread instead of saturating) and zero biases."""
    weights = numpy.random.default_rng(3)
    with kusari.using_config("train", False):   # parameters of deferred size
        model(numpy.zeros((1, 3, model.insize, model.insize), numpy.float32))
    head_params = {id(p) for p in head.params()}
    for p in model.params():
        if p.ndim == 1:
            p.array[...] = 0
        else:
            scale = (head_scale if id(p) in head_params else 1) / numpy.sqrt(p[0].size)
            p.array[...] = weights.normal(0, scale, p.shape)
    model.use_preset("evaluate")
    return model


def _tiny_ssd():
    from kusari.vision.links.model.ssd import SSD, Multibox
    model = SSD(_TinyExtractor(), Multibox(4, ((2,), (2,))), steps=(4, 8), sizes=(8, 16, 32), mean=128)
    return _seeded(model, model.multibox, 0.01)


def _tiny_yolo():
    from kusari.vision.links.model.yolo import YOLOv2Base

    class Extractor(kusari.Chain):
        insize, grid = 64, 4

        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.conv = L.Convolution2D(3, 8, 3, stride=16, pad=1)

        def forward(self, x):
            return F.leaky_relu(self.conv(x), 0.1)

    class TinyYOLO(YOLOv2Base):
        _extractor = Extractor
        _anchors = ((1.0, 1.5), (2.5, 2.0))

    model = TinyYOLO(n_fg_class=3)
    return _seeded(model, model.subnet, 1)


def _prepared(model, imgs):
    """The batch ``predict`` runs: SSD subtracts the mean, YOLO scales to [0, 1] (images of ``insize``: no resizing)."""
    from kusari.vision.links.model.ssd import SSD
    if isinstance(model, SSD):
        return numpy.stack([img - numpy.asarray(model.mean, numpy.float32) for img in imgs])
    return numpy.stack([img / 255 for img in imgs])


def _onnx_detections(proto, x):
    """ONNX Runtime's picks split per image: lists of boxes, labels and scores."""
    bbox, label, score, image = run_onnx(proto, {"image": x})
    assert numpy.all(numpy.diff(image) >= 0), "detections ordered by image"
    return tuple([a[image == i] for i in range(len(x))] for a in (bbox, label, score))


def _matched(got, want):
    """The fraction of ``want``'s detections that ``got`` has too (same image and class, box within 1e-3 pixels and
    1e-4 of its size, score within 1e-5), each matched once."""
    matched = total = 0
    for gb, gl, gs, wb, wl, ws in zip(*got, *want):
        total += len(wl)
        for label in numpy.unique(wl):
            g, w = gl == label, wl == label
            close = (numpy.abs(gb[g][:, None] - wb[w][None]) <= 1e-3 + 1e-4 * numpy.abs(wb[w][None])).all(axis=2)
            close &= numpy.abs(gs[g][:, None] - ws[w][None]) <= 1e-5
            matched += min(close.any(axis=0).sum(), close.any(axis=1).sum())
    return matched / total


def _images(model, n):
    return [rng.uniform(0, 255, (3, model.insize, model.insize)).astype(numpy.float32) for _ in range(n)]


@pytest.mark.parametrize("make", [_tiny_ssd, _tiny_yolo], ids=["ssd", "yolov2"])
def test_export_detector_matches_predict_exactly_with_ties(make):
    """A small SSD and YOLOv2: the file's detections are predict's, in its order, on random images and on a flat grey
    one, whose equal scores at every inner anchor are visited by descending index as kusari visits them."""
    import kusari.onnx
    model = make()
    imgs = _images(model, 2) + [numpy.full((3, model.insize, model.insize), 100, numpy.float32)]
    x = _prepared(model, imgs)
    buffer = io.BytesIO()
    proto = kusari.onnx.export_detector(model, x[:1], filename=buffer)
    assert buffer.getvalue() == proto.SerializeToString()
    assert "NonMaxSuppression" in [n.op_type for n in proto.graph.node]
    got = _onnx_detections(proto, x)
    want = model.predict(imgs)
    assert len(numpy.unique(want[2][2])) < len(want[2][2]), "the flat image gives tied scores"
    for g, w in zip(got, want):
        for i, (gi, wi) in enumerate(zip(g, w)):
            assert gi.dtype == wi.dtype and gi.shape == wi.shape, (i, gi.shape, wi.shape)
            numpy.testing.assert_allclose(gi, wi, rtol=1e-5, atol=1e-4, err_msg=f"image {i}")


def _every_anchor(model, x):
    """kusari's decoding of every anchor (no threshold, no suppression) per image: boxes (C K, 4) and scores (C K,),
    class by class, as ``predict``'s decoding lists them."""
    from kusari.vision.links.model.ssd import SSD
    with kusari.using_config("train", False):
        outs = [y.array for y in model(x)]
    saved = model.nms_thresh, model.score_thresh
    model.nms_thresh, model.score_thresh = None, 0
    try:
        return [model.coder.decode(*o, nms_thresh=None, score_thresh=0)[::2] if isinstance(model, SSD)
                else model._decode(*o)[::2] for o in zip(*outs)]
    finally:
        model.nms_thresh, model.score_thresh = saved


def _check_every_anchor(model, x, proto, box_atol):
    """The file without NMS (``bbox`` (B, K, 4), ``score`` (B, K, C)) against kusari's decoding; returns its outputs."""
    bbox, score = run_onnx(proto, {"image": x})
    n_class = score.shape[2]
    for i, (want_bbox, want_score) in enumerate(_every_anchor(model, x)):
        numpy.testing.assert_allclose(bbox[i][numpy.tile(numpy.arange(bbox.shape[1]), n_class)], want_bbox,
                                      rtol=1e-4, atol=box_atol, err_msg=f"image {i}")
        numpy.testing.assert_allclose(score[i].T.reshape(-1), want_score, rtol=1e-4, atol=1e-7, err_msg=f"image {i}")
    return bbox, score


@pytest.mark.parametrize("make", [_tiny_ssd, _tiny_yolo], ids=["ssd", "yolov2"])
def test_export_detector_without_nms_gives_every_anchor(make, check):
    import kusari.onnx
    model = make()
    x = _prepared(model, _images(model, 3))
    proto = kusari.onnx.export_detector(model, x[:2], nms=False)
    bbox, score = _check_every_anchor(model, x, proto, box_atol=1e-4)
    assert bbox.shape == (3, len(_every_anchor(model, x[:1])[0][1]) // 3, 4) and score.shape[2] == 3
    check(kusari.onnx.detection.decoder(model), lambda n: (x[:n],), batches=(2, 3))   # and it loads back


def test_export_detector_names_bad_arguments():
    import kusari.onnx
    model = _tiny_ssd()
    with pytest.raises(TypeError, match="decoder: model must be a kusari.vision SSD, YOLOv2Base or YOLOv3, got "
                                        "_TinyExtractor"):
        kusari.onnx.export_detector(model.extractor, numpy.zeros((1, 3, 32, 32), numpy.float32))
    with pytest.raises(ValueError, match=r"x must have shape \(B, 3, 32, 32\) for SSD, got \(1, 3, 30, 32\)"):
        kusari.onnx.export_detector(model, numpy.zeros((1, 3, 30, 32), numpy.float32))
    with pytest.raises(ValueError, match="nms_thresh must be in \\(0, 1\\] .*got 0"):
        kusari.onnx.export_detector(model, numpy.zeros((1, 3, 32, 32), numpy.float32), nms_thresh=0)


def test_nms_thresholds_are_inclusive_like_kusari():
    """IoU exactly at nms_thresh suppresses, a score exactly at score_thresh is kept and equal scores are visited by
    descending index, as in kusari's NMS."""
    from onnx import TensorProto, helper

    from kusari.onnx.detection import _append_nms
    from kusari.vision.links.model._single_shot import suppress_per_class
    bbox = numpy.array([[0, 0, 2, 2], [0, 0, 2, 1], [5, 5, 6, 6], [5, 5, 6, 6.1], [9, 9, 10, 10]], numpy.float32)
    score = numpy.array([[0.9, 0.2], [0.8, 0.5], [0.5, 0.3], [0.5, 0.3], [0.25, 0.5]], numpy.float32)
    graph = helper.make_graph([helper.make_node("Identity", ["b"], ["raw_bbox"]),
                               helper.make_node("Identity", ["s"], ["raw_score"])], "g",
                              [helper.make_tensor_value_info("b", TensorProto.FLOAT, [1, 5, 4]),
                               helper.make_tensor_value_info("s", TensorProto.FLOAT, [1, 5, 2])], [])
    proto = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    _append_nms(proto, "raw_bbox", "raw_score", n_box=5, nms_thresh=0.5, score_thresh=0.25)
    got = run_onnx(proto, {"b": bbox[None], "s": score[None]})
    want = suppress_per_class(bbox, score, 0.5, 0.25)
    # class 0: box 1 (IoU 0.5 with box 0) suppressed, box 3 before its tie 2, which it suppresses, box 4 at 0.25
    # kept; class 1: box 4 before its tie 1, box 3 before 2, box 0 under 0.25
    numpy.testing.assert_array_equal(want[0], bbox[[0, 3, 4, 4, 1, 3]])
    for g, w in zip(got[:3], want):
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["SSD300", "YOLOv2", "YOLOv3"])
def test_export_detector_matches_predict(name):
    """The zoo architectures (random weights, their last layers scaled down so that scores spread instead of
    saturating) with the 'evaluate' preset: the decoded anchors match kusari's within rtol 1e-4; ONNX Runtime's
    NonMaxSuppression picks exactly what kusari's suppression picks from those anchors; and the file's detections
    are predict's, but for the few that one float32 rounding of a box moves across the IoU threshold (with
    thousands of overlapping random boxes, a flip changes what the flipped box suppresses in turn)."""
    import kusari.onnx
    from kusari.vision.links.model._single_shot import suppress_per_class
    model = getattr(vision.links, name)(n_fg_class=3)
    model.use_preset("evaluate")
    with kusari.using_config("train", False):   # parameters of deferred size
        model(numpy.zeros((1, 3, model.insize, model.insize), numpy.float32))
    for p in (model.multibox if name == "SSD300" else model.subnet).params():
        p.array *= 0.1
    imgs = _images(model, 2)
    x = _prepared(model, imgs)
    # box coordinates reach 1e3 pixels: float32 resolves 6e-5 there
    bbox, score = _check_every_anchor(model, x, kusari.onnx.export_detector(model, x[:1], nms=False), box_atol=1e-3)
    got = _onnx_detections(kusari.onnx.export_detector(model, x[:1]), x)
    for i in range(len(x)):
        want = suppress_per_class(bbox[i], score[i], model.nms_thresh, model.score_thresh)
        for g, w in zip(got, want):
            numpy.testing.assert_array_equal(g[i], w, err_msg=f"image {i}")
    want = model.predict(imgs)
    assert min(len(b) for b in want[0]) > 500
    assert _matched(got, want) >= 0.99
