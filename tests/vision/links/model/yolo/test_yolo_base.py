"""YOLOBase and YOLOv2Base on a small extractor: presets, how predict maps boxes back to the image, empty
results, devices and bad input. The full models are compared with ChainerCV in test_yolo_v2.py,
test_yolo_v3.py and tests/vision/experimental/links/model/yolo/test_yolo_v2_tiny.py."""
import numpy
import pytest

import kusari
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model.yolo import YOLOBase, YOLOv2Base


class TinyExtractor(kusari.ChainList):
    insize = 64
    grid = 2

    def __init__(self):
        super().__init__(Conv2DBNActiv(3, 8, 3, stride=32, pad=1))

    def forward(self, x):
        return self[0](x)


class TinyYOLO(YOLOv2Base):
    _extractor = TinyExtractor
    _models = {}
    _anchors = ((1.0, 1.5), (0.5, 0.8))


def test_presets():
    model = TinyYOLO(n_fg_class=2)
    assert isinstance(model, YOLOBase)
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.5)
    model.use_preset("evaluate")
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.005)
    model.use_preset("visualize")
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.5)
    with pytest.raises(ValueError, match="TinyYOLO.use_preset: preset must be one of 'visualize', 'evaluate'"):
        model.use_preset("evaluation")


@pytest.mark.parametrize("shape, scale, offset", [((3, 32, 48), 1, (16, 8)),      # padded
                                                  ((3, 128, 64), 0.5, (0, 16))])  # shrunk, then padded
def test_predict_maps_canvas_boxes_to_the_image(shape, scale, offset):
    model = TinyYOLO(n_fg_class=2)
    model.score_thresh = 0
    img = numpy.random.RandomState(0).uniform(0, 255, shape).astype(numpy.float32)
    outputs = []
    forward = model.forward
    model.forward = lambda x: outputs.append((x, forward(x))) or outputs[-1][1]
    bboxes, labels, scores = model.predict([img])
    x, (locs, objs, confs) = outputs[0]
    assert x.shape == (1, 3, 64, 64) and x.dtype == numpy.float32
    canvas = x[0]
    H, W = int(shape[1] * scale), int(shape[2] * scale)
    numpy.testing.assert_array_equal(canvas[:, :offset[0]], 0.5)           # the fill around the image
    assert (canvas[:, offset[0]:offset[0] + H, offset[1]:offset[1] + W] <= 1).all()
    bbox, label, score = model._decode(locs.array[0], objs.array[0], confs.array[0])
    expected = (bbox - numpy.array(offset * 2, numpy.float32)) / scale
    numpy.testing.assert_allclose(bboxes[0], expected, rtol=1e-5, atol=1e-4)
    numpy.testing.assert_array_equal(labels[0], label)
    numpy.testing.assert_array_equal(scores[0], score)
    assert len(bboxes[0]) > 0 and bboxes[0].dtype == scores[0].dtype == numpy.float32


def test_decode_is_the_yolov2_box_and_score_formula():
    model = TinyYOLO(n_fg_class=2)
    model.score_thresh, model.nms_thresh = 0, 1.01     # keep every box
    rng = numpy.random.RandomState(1)
    K = 2 * 2 * 2
    loc = rng.standard_normal((K, 4)).astype(numpy.float32)
    obj = rng.standard_normal(K).astype(numpy.float32)
    conf = rng.standard_normal((K, 2)).astype(numpy.float32)
    bbox, label, score = model._decode(loc, obj, conf)
    sigmoid = lambda v: 1 / (1 + numpy.exp(-v.astype(numpy.float64)))  # noqa: E731
    cells = numpy.array([(v, u) for v in range(2) for u in range(2) for _ in range(2)], numpy.float64)
    anchors = numpy.tile(numpy.array(model._anchors), (4, 1))
    center = (cells + sigmoid(loc[:, :2])) * 32
    size = anchors * numpy.exp(loc[:, 2:]) * 32
    p = numpy.exp(conf) / numpy.exp(conf).sum(axis=1, keepdims=True)
    for l in range(2):
        rows = numpy.argsort(-(sigmoid(obj) * p[:, l]), kind="stable")
        numpy.testing.assert_allclose(bbox[label == l], numpy.concatenate((center - size / 2, center + size / 2),
                                                                          axis=1)[rows], rtol=1e-5)
        numpy.testing.assert_allclose(score[label == l], (sigmoid(obj) * p[:, l])[rows], rtol=1e-6)


def test_empty_result_is_valid():
    model = TinyYOLO(n_fg_class=3)
    model.score_thresh = 1.1
    bboxes, labels, scores = model.predict([numpy.zeros((3, 20, 30), numpy.float32)])
    assert bboxes[0].shape == (0, 4) and bboxes[0].dtype == numpy.float32
    assert labels[0].shape == (0,) and labels[0].dtype == numpy.int32 and scores[0].shape == (0,)


def test_to_device_moves_the_anchors():
    model = TinyYOLO(n_fg_class=3)
    assert model.to_device("@numpy") is model and isinstance(model._default_bbox, numpy.ndarray)


def test_bad_input():
    with pytest.raises(ValueError, match="TinyYOLO: n_fg_class must be specified"):
        TinyYOLO()
    with pytest.raises(ValueError, match="TinyYOLO: n_fg_class must be a positive int, got -1"):
        TinyYOLO(n_fg_class=-1)
    model = TinyYOLO(n_fg_class=3)
    with pytest.raises(ValueError, match=r"TinyYOLO.predict: imgs\[0\] looks like an HWC image"):
        model.predict([numpy.zeros((30, 20, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"TinyYOLO.predict: imgs\[0\] must have 3 channels, got 4"):
        model.predict([numpy.zeros((4, 30, 20), numpy.float32)])


def test_package_exports_chainercv_names():
    import kusari.vision as chainercv
    from kusari.vision.links.model import yolo
    names = {"YOLOBase", "Darknet19Extractor", "YOLOv2", "YOLOv2Base", "Darknet53Extractor", "ResidualBlock",
             "YOLOv3"}                                                    # chainercv.links.model.yolo's __init__
    assert names <= set(vars(yolo))
    assert chainercv.links.YOLOv2 is yolo.YOLOv2 and chainercv.links.YOLOv3 is yolo.YOLOv3
