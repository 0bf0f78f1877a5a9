"""kusari.vision.links.model.fpn.FasterRCNN: presets, return values, preprocessing and bad input (its numbers
are compared with ChainerCV's in test_faster_rcnn_fpn_resnet.py)."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.model.fpn import FPN, RPN, BboxHead, FasterRCNN, MaskHead

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


class SmallBase(kusari.Chain):
    """Four maps of strides 4 to 32, 4 channels each (a stand-in for a ResNet's res2 to res5)."""

    mean = numpy.array([120, 110, 100], numpy.float32)[:, None, None]

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1)

    def forward(self, x):
        h = F.average_pooling_2d(self.conv(x / 100), 4)
        hs = [h]
        for _ in range(3):
            hs.append(F.average_pooling_2d(hs[-1], 2))
        return hs


def small_model(return_values, n_fg_class=3):
    extractor = FPN(SmallBase(), 4, SCALES)
    rpn = RPN(SCALES)
    rpn._test_nms_limit_post = 12    # few proposals: quick heads
    return FasterRCNN(extractor, rpn, BboxHead(n_fg_class + 1, SCALES), MaskHead(n_fg_class + 1, SCALES),
                      return_values, min_size=64, max_size=96)


@pytest.fixture(scope="module")
def model():
    return small_model(["rois", "bboxes", "labels", "scores"])


def test_presets_set_the_thresholds(model):
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.7)
    model.use_preset("evaluate")
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.05)
    model.use_preset("visualize")
    assert (model.nms_thresh, model.score_thresh) == (0.5, 0.7)
    with pytest.raises(ValueError, match="FasterRCNN.use_preset: preset must be 'visualize' or "
                                         "'evaluate', got 'fast'"):
        model.use_preset("fast")


def test_heads_are_registered_only_when_their_outputs_are_asked_for():
    rois_only = small_model(["rois"])
    assert not hasattr(rois_only, "bbox_head") and not hasattr(rois_only, "mask_head")
    boxes = small_model(["labels"])
    assert hasattr(boxes, "bbox_head") and not hasattr(boxes, "mask_head")
    masks = small_model(["masks"])
    assert hasattr(masks, "bbox_head") and hasattr(masks, "mask_head")
    with pytest.raises(ValueError, match=r"FasterRCNN: return_values holds 'boxes', which is not one of"):
        small_model(["boxes"])


def test_prepare_scales_subtracts_the_mean_and_pads(model):
    imgs = [numpy.full((3, 40, 50), 100, numpy.float32), numpy.full((3, 60, 30), 100, numpy.float32)]
    x, scales = model.prepare(imgs)
    # 40x50: the shorter side to 64 (64x80); 60x30: that would make the longer side 128 > 96, so 96x48
    assert scales == [64 / 40, 96 / 60]
    assert x.shape == (2, 3, 96, 96) and x.dtype == numpy.float32
    mean = model.extractor.mean
    numpy.testing.assert_allclose(x[0, :, :64, :80], numpy.broadcast_to(100 - mean, (3, 64, 80)), rtol=1e-6)
    assert not x[0, :, 64:].any() and not x[0, :, :, 80:].any() and not x[1, :, :, 48:].any()


# random weights give class logits past float32's exp (ChainerCV's scores are then NaN and dropped)
@pytest.mark.filterwarnings("ignore:overflow encountered in exp", "ignore:invalid value encountered in divide")
def test_predict_returns_one_array_per_image_in_return_values_order(model):
    model.use_preset("evaluate")
    imgs = [numpy.random.RandomState(0).uniform(0, 255, (3, 40, 50)).astype(numpy.float32),
            numpy.random.RandomState(1).randint(0, 256, (3, 30, 40)).astype(numpy.uint8)]
    copies = [img.copy() for img in imgs]
    rois, bboxes, labels, scores = model.predict(imgs)
    for img, copy in zip(imgs, copies):
        numpy.testing.assert_array_equal(img, copy)          # the caller's images are untouched
    for i, (h, w) in enumerate([(40, 50), (30, 40)]):
        assert rois[i].ndim == 2 and rois[i].dtype == numpy.float32
        assert bboxes[i].shape == (len(labels[i]), 4) and bboxes[i].dtype == numpy.float32
        assert labels[i].dtype == numpy.int32 and scores[i].dtype == numpy.float32
        assert ((labels[i] >= 0) & (labels[i] < 3)).all() and (scores[i] >= 0.05).all()
        assert (bboxes[i][:, 2:] <= numpy.array([h, w])).all() and (bboxes[i] >= 0).all()
    model.use_preset("visualize")


def test_predict_of_no_image_returns_empty_lists(model):
    assert model.predict([]) == ([], [], [], [])


def test_predict_rejects_bad_images(model):
    with pytest.raises(ValueError, match=r"FasterRCNN.predict: imgs\[0\] looks like an HWC image"):
        model.predict([numpy.zeros((40, 50, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"FasterRCNN.predict: imgs\[1\] must have 3 channels, got 1"):
        model.predict([numpy.zeros((3, 40, 50), numpy.float32), numpy.zeros((1, 40, 50), numpy.float32)])
    with pytest.raises(TypeError, match=r"FasterRCNN.predict: imgs\[0\] must have an integer or "
                                        r"floating-point dtype"):
        model.predict([numpy.zeros((3, 40, 50), bool)])


def test_forward_runs_in_test_mode_only(model):
    with pytest.raises(RuntimeError, match="FasterRCNN.forward runs in test mode only"):
        with kusari.using_config("train", True):
            model(numpy.zeros((1, 3, 64, 64), numpy.float32))


def test_masks_follow_the_detections():
    model = small_model(["masks", "labels", "scores", "bboxes"], n_fg_class=1)
    model.score_thresh = 0.0
    img = numpy.random.RandomState(2).uniform(0, 255, (3, 50, 60)).astype(numpy.float32)
    masks, labels, scores, bboxes = model.predict([img, img[:, :40, :30]])
    for mask, label, bbox, size in zip(masks, labels, bboxes, [(50, 60), (40, 30)]):
        assert len(label) > 0 and mask.shape == (len(label),) + size and mask.dtype == bool
        # a mask lies within its box (enlarged by the one-pixel padding of the 28-pixel mask)
        for i, m in enumerate(mask):
            rows, cols = numpy.flatnonzero(m.any(axis=1)), numpy.flatnonzero(m.any(axis=0))
            if len(rows):
                h, w = bbox[i, 2] - bbox[i, 0], bbox[i, 3] - bbox[i, 1]
                assert rows[0] >= bbox[i, 0] - h / 28 - 1 and rows[-1] < bbox[i, 2] + h / 28 + 1
                assert cols[0] >= bbox[i, 1] - w / 28 - 1 and cols[-1] < bbox[i, 3] + w / 28 + 1
