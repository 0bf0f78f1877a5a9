"""FasterRCNN, the base class, on a tiny configuration: outputs, the detection API, preprocessing, presets and
bad input. Its numbers against ChainerCV's are checked through FasterRCNNVGG16 (test_faster_rcnn_vgg.py)."""
import numpy
import pytest

import kusari
from kusari.vision.utils import assert_is_detection_link


def _image(shape=(3, 30, 40), seed=0):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


def test_forward(make_tiny):
    model = make_tiny(n_fg_class=3)
    x = numpy.random.RandomState(0).uniform(-100, 100, (2, 3, 32, 40)).astype(numpy.float32)
    with kusari.using_config("train", False):
        roi_cls_locs, roi_scores, rois, roi_indices = model(x, scales=[1., 1.])
    n = len(rois)
    assert 0 < n <= 40 and rois.dtype == numpy.float32
    assert isinstance(roi_cls_locs, kusari.Variable) and roi_cls_locs.shape == (n, 16)
    assert isinstance(roi_scores, kusari.Variable) and roi_scores.shape == (n, 4)
    assert roi_indices.dtype == numpy.int32 and set(roi_indices.tolist()) <= {0, 1}
    assert numpy.all(numpy.diff(roi_indices) >= 0)
    assert model.n_class == 4


def test_predict_is_a_detection_link(make_tiny):
    model = make_tiny(n_fg_class=3)
    model.score_thresh = 0.1
    assert_is_detection_link(model, 3)


def test_predict_boxes_are_in_image_coordinates(make_tiny):
    model = make_tiny(n_fg_class=3)
    model.use_preset("evaluate")
    img = _image((3, 48, 64))       # prepared to 32 x 42 (scale 2/3), then back
    bboxes, labels, scores = model.predict([img, img[:, :30, :40]])
    assert len(bboxes) == len(labels) == len(scores) == 2
    for bbox, label, score, (H, W) in zip(bboxes, labels, scores, [(48, 64), (30, 40)]):
        assert len(bbox) > 0
        assert bbox.dtype == numpy.float32 and label.dtype == numpy.int32 and score.dtype == numpy.float32
        assert bbox.min() >= 0 and bbox[:, 2].max() <= H and bbox[:, 3].max() <= W
        assert numpy.all(score > 0.05) and numpy.all((0 <= label) & (label < 3))
        assert numpy.all(numpy.diff(label) >= 0)                       # classes in ascending order,
        for l in numpy.unique(label):                                   # scores descending in each
            assert numpy.all(numpy.diff(score[label == l]) <= 0)


def test_predict_matches_forward_by_hand(make_tiny):
    """predict = prepare, forward, de-normalize, decode, rescale, clip, softmax and per-class NMS."""
    from kusari.vision.links.model.faster_rcnn import loc2bbox
    from kusari.vision.utils import non_maximum_suppression
    model = make_tiny(n_fg_class=2)
    model.use_preset("evaluate")
    img = _image((3, 48, 64), seed=3)
    (bbox,), (label,), (score,) = model.predict([img])
    x = model.prepare(img)
    scale = x.shape[2] / 64
    with kusari.using_config("train", False):
        roi_cls_loc, roi_score, roi, _ = model(x[None], scales=[scale])
    loc = roi_cls_loc.array.reshape(-1, 3, 4) * numpy.array([0.1, 0.1, 0.2, 0.2])
    box = loc2bbox(numpy.repeat(roi / scale, 3, axis=0), loc.reshape(-1, 4).astype(numpy.float32)).reshape(-1, 3, 4)
    box[..., 0::2] = box[..., 0::2].clip(0, 48)
    box[..., 1::2] = box[..., 1::2].clip(0, 64)
    prob = numpy.exp(roi_score.array) / numpy.exp(roi_score.array).sum(axis=1, keepdims=True)
    expected = []
    for l in (1, 2):
        mask = prob[:, l] > 0.05
        keep = non_maximum_suppression(box[mask, l], 0.3, prob[mask, l])
        expected += [(l - 1, tuple(b), s) for b, s in zip(box[mask, l][keep], prob[mask, l][keep])]
    assert len(expected) == len(bbox) > 0
    numpy.testing.assert_array_equal(label, [e[0] for e in expected])
    numpy.testing.assert_allclose(bbox, [e[1] for e in expected], rtol=1e-5, atol=1e-4)
    numpy.testing.assert_allclose(score, [e[2] for e in expected], rtol=1e-5)


def test_nothing_detected_is_empty_arrays(make_tiny):
    model = make_tiny()
    model.score_thresh = 1.0
    (bbox,), (label,), (score,) = model.predict([_image()])
    assert bbox.shape == (0, 4) and bbox.dtype == numpy.float32
    assert label.shape == (0,) and label.dtype == numpy.int32
    assert score.shape == (0,) and score.dtype == numpy.float32


def test_predict_leaves_images_and_mode_alone(make_tiny):
    model = make_tiny()
    img = _image().astype(numpy.uint8)
    before = img.copy()
    model.predict([img])
    numpy.testing.assert_array_equal(img, before)
    assert kusari.config.train


@pytest.mark.parametrize("in_shape, expected", [((3, 100, 100), (3, 200, 200)), ((3, 200, 50), (3, 400, 100)),
                                                ((3, 400, 100), (3, 400, 100)), ((3, 300, 600), (3, 200, 400)),
                                                ((3, 600, 900), (3, 200, 300))])
def test_prepare(make_tiny, in_shape, expected):
    model = make_tiny(min_size=200, max_size=400)
    out = model.prepare(_image(in_shape))
    assert out.shape == expected and out.dtype == numpy.float32
    flat = numpy.full(in_shape, 130, numpy.float32)
    numpy.testing.assert_allclose(model.prepare(flat), 30, rtol=1e-6)     # 130 - the mean (100)


def test_presets(make_tiny):
    model = make_tiny()
    assert (model.nms_thresh, model.score_thresh) == (0.3, 0.7)
    model.use_preset("evaluate")
    assert (model.nms_thresh, model.score_thresh) == (0.3, 0.05)
    model.use_preset("visualize")
    assert (model.nms_thresh, model.score_thresh) == (0.3, 0.7)
    with pytest.raises(ValueError, match="FasterRCNN.use_preset: preset must be 'visualize' or 'evaluate', got 'fast'"):
        model.use_preset("fast")


@pytest.mark.parametrize("img, error, message", [
    (numpy.zeros((30, 40, 3), numpy.float32), ValueError, r"imgs\[0\] looks like an HWC image"),
    (numpy.zeros((4, 30, 40), numpy.float32), ValueError, r"imgs\[0\] must have 3 channels, got 4"),
    (numpy.zeros((30, 40), numpy.float32), ValueError, r"imgs\[0\] must be a 3-dimensional CHW array"),
    (numpy.zeros((3, 30, 40), bool), TypeError, r"imgs\[0\] must have an integer or floating-point dtype"),
    (numpy.zeros((3, 0, 40), numpy.float32), ValueError, r"imgs\[0\] is empty \(shape=\(3, 0, 40\)\)"),
    ([[1.0]], TypeError, r"imgs\[0\] must be a numpy.ndarray"),
])
def test_bad_images(make_tiny, img, error, message):
    with pytest.raises(error, match="FasterRCNN.predict: " + message):
        make_tiny().predict([img])
