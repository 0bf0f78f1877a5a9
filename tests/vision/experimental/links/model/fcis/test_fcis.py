"""FCIS, the base class, on a tiny configuration: outputs, the instance segmentation API, presets and bad input.
Its numbers against ChainerCV's are checked through FCISResNet101 (test_fcis_resnet101.py)."""
import numpy
import pytest

import kusari
from kusari.vision.experimental.links.model.fcis import mask_voting
from kusari.vision.transforms import resize
from kusari.vision.utils import assert_is_instance_segmentation_link


def _image(shape=(3, 30, 40), seed=0):
    return numpy.random.RandomState(seed).uniform(0, 255, shape).astype(numpy.float32)


@pytest.mark.parametrize("iter2", [True, False])
def test_forward(make_tiny, iter2):
    model = make_tiny(n_fg_class=3, iter2=iter2)
    x = numpy.random.RandomState(0).uniform(-100, 100, (2, 3, 32, 40)).astype(numpy.float32)
    with kusari.using_config("train", False):
        segs, locs, cls, rois, roi_indices = model(x, scales=[1., 1.])
    n = len(rois)
    assert 0 < n <= (80 if iter2 else 40) and rois.dtype == numpy.float32
    if iter2:        # the proposals, then the RoIs refined from them
        numpy.testing.assert_array_equal(roi_indices[:n // 2], roi_indices[n // 2:])
    assert isinstance(segs, kusari.Variable) and segs.shape == (n, 2, 7, 7)
    assert isinstance(locs, kusari.Variable) and locs.shape == (n, 2, 4)
    assert isinstance(cls, kusari.Variable) and cls.shape == (n, 4)
    assert roi_indices.dtype == numpy.int32 and set(roi_indices.tolist()) == {0, 1}
    assert model.n_class == 4


def test_predict_is_an_instance_segmentation_link(make_tiny):
    model = make_tiny(n_fg_class=3)
    model.use_preset("evaluate")
    assert_is_instance_segmentation_link(model, 3)


def test_predict_by_hand(make_tiny):
    """predict = prepare, forward, drop the boxes under min_drop_size, rescale, clip, softmax, mask_voting,
    and each merged mask resized to its box and thresholded (strictly) into an image-sized mask."""
    model = make_tiny(n_fg_class=2)
    model.use_preset("evaluate")
    img = _image((3, 45, 60), seed=3)
    (masks,), (label,), (score,) = model.predict([img])
    assert len(label) > 0 and masks.shape == (len(label), 45, 60) and masks.dtype == numpy.bool_
    assert label.dtype == numpy.int32 and score.dtype == numpy.float32

    x = model.prepare(img)
    scale = x.shape[2] / 60
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        segs, _, cls, rois, _ = model(x[None], scales=[scale])
    keep = numpy.minimum(rois[:, 2] - rois[:, 0], rois[:, 3] - rois[:, 1]) >= 16
    assert 0 < keep.sum() < len(keep)          # some boxes are dropped
    bbox = numpy.clip(rois[keep] / scale, 0, [45, 60, 45, 60]).astype(numpy.float32)
    seg_prob = kusari.functions.softmax(segs.array[keep]).array[:, 1]
    cls_prob = kusari.functions.softmax(cls.array[keep]).array
    prob, v_bbox, v_label, v_score = mask_voting(seg_prob, bbox, cls_prob, (45, 60), 1e-3, 0.3, 0.5, 0.4)
    numpy.testing.assert_array_equal(label, v_label)
    numpy.testing.assert_array_equal(score, v_score)
    for mask, p, (y0, x0, y1, x1) in zip(masks, prob, v_bbox.astype(int)):
        expected = numpy.zeros((45, 60), bool)
        expected[y0:y1, x0:x1] = resize(p[None], (y1 - y0, x1 - x0))[0] > 0.4
        numpy.testing.assert_array_equal(mask, expected)


def test_nothing_found(make_tiny):
    """No mask above score_thresh, or every box dropped by min_drop_size (where ChainerCV 0.13.1 fails): typed
    empty results."""
    model = make_tiny(n_fg_class=2)
    for setting in ({"score_thresh": 1.5}, {"min_drop_size": 1000}):
        model.use_preset("evaluate")
        for key, value in setting.items():
            setattr(model, key, value)
        (masks,), (label,), (score,) = model.predict([_image()])
        assert masks.shape == (0, 30, 40) and masks.dtype == numpy.bool_
        assert label.shape == (0,) and label.dtype == numpy.int32
        assert score.shape == (0,) and score.dtype == numpy.float32


def test_presets(make_tiny):
    model = make_tiny()
    names = ("nms_thresh", "score_thresh", "mask_merge_thresh", "binary_thresh", "limit", "min_drop_size")
    assert tuple(getattr(model, n) for n in names) == (0.3, 0.7, 0.5, 0.4, 100, 16)      # 'visualize'
    model.use_preset("evaluate")
    assert tuple(getattr(model, n) for n in names) == (0.3, 1e-3, 0.5, 0.4, 100, 16)
    model.use_preset("coco_evaluate")
    assert tuple(getattr(model, n) for n in names) == (0.3, 1e-3, 0.5, 0.4, 100, 2)
    model.use_preset("visualize")
    assert model.score_thresh == 0.7
    with pytest.raises(ValueError, match="FCIS.use_preset: preset must be 'visualize', 'evaluate' or "
                                         "'coco_evaluate', got 'fast'"):
        model.use_preset("fast")


def test_prepare(make_tiny):
    model = make_tiny(min_size=32, max_size=48)
    assert model.prepare(_image((3, 30, 40))).shape == (3, 32, 42)
    assert model.prepare(_image((3, 20, 60))).shape == (3, 16, 48)       # the longer side capped
    x = model.prepare(numpy.full((3, 30, 40), 130, numpy.uint8))
    assert x.dtype == numpy.float32
    numpy.testing.assert_allclose(x, 30)


@pytest.mark.parametrize("img, error, message", [
    (numpy.zeros((30, 40, 3), numpy.float32), ValueError, r"imgs\[0\] looks like an HWC image"),
    (numpy.zeros((1, 30, 40), numpy.float32), ValueError, r"imgs\[0\] must have 3 channels, got 1"),
    (numpy.zeros((3, 0, 40), numpy.float32), ValueError, r"imgs\[0\] is empty"),
    (numpy.zeros((30, 40), numpy.float32), ValueError, r"imgs\[0\] must be a 3-dimensional CHW array"),
    (numpy.zeros((3, 30, 40), bool), TypeError, r"imgs\[0\] must have an integer or floating-point dtype"),
])
def test_bad_input(make_tiny, img, error, message):
    with pytest.raises(error, match="FCIS.predict: " + message):
        make_tiny().predict([img])
