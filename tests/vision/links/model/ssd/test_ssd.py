"""SSD (the base class) on a small extractor: presets, predict's outputs (empty ones too), devices and bad
input. The full models are compared with ChainerCV in test_ssd_vgg16.py."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.vision import transforms
from kusari.vision.links.model.ssd import SSD, Multibox


class TinyExtractor(kusari.Chain):
    insize = 32
    grids = (4, 2)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 3, pad=1)

    def forward(self, x):
        h = F.average_pooling_2d(self.conv(x), 8)
        return [h, F.average_pooling_2d(h, 2)]


def tiny_ssd(n_fg_class=2):
    return SSD(TinyExtractor(), Multibox(n_fg_class + 1, ((2,), (2,))), steps=(8, 16), sizes=(8, 16, 24),
               mean=numpy.array([1, 2, 3], numpy.float32).reshape(3, 1, 1))


def test_presets():
    model = tiny_ssd()
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.6)
    model.use_preset("evaluate")
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.01)
    model.use_preset("visualize")
    assert (model.nms_thresh, model.score_thresh) == (0.45, 0.6)
    with pytest.raises(ValueError, match="SSD.use_preset: preset must be one of 'visualize', 'evaluate', got 'x'"):
        model.use_preset("x")


def test_attributes():
    model = tiny_ssd(n_fg_class=5)
    assert model.n_fg_class == 5 and model.insize == 32
    assert len(model.coder._default_bbox) == 4 * 4 * 4 + 2 * 2 * 4


def test_predict_decodes_and_scales_back():
    """predict = resize, subtract the mean, forward, MultiboxCoder.decode, resize the boxes back."""
    model = tiny_ssd()
    model.use_preset("evaluate")
    rng = numpy.random.RandomState(0)
    imgs = [rng.uniform(0, 255, (3, 20, 48)).astype(numpy.float32),
            rng.uniform(0, 255, (3, 40, 16)).astype(numpy.float32)]
    bboxes, labels, scores = model.predict(imgs)
    x = numpy.stack([transforms.resize(img, (32, 32)) - model.mean for img in imgs])
    with kusari.using_config("train", False):
        mb_locs, mb_confs = model(x)
    for i, img in enumerate(imgs):
        bbox, label, score = model.coder.decode(mb_locs.array[i], mb_confs.array[i], 0.45, 0.01)
        assert len(bbox) > 0
        numpy.testing.assert_allclose(bboxes[i], transforms.resize_bbox(bbox, (32, 32), img.shape[1:]), rtol=1e-6)
        numpy.testing.assert_array_equal(labels[i], label)
        numpy.testing.assert_allclose(scores[i], score, rtol=1e-6)
        assert bboxes[i].dtype == scores[i].dtype == numpy.float32 and labels[i].dtype == numpy.int32


def test_empty_result_is_valid():
    model = tiny_ssd()
    model.score_thresh = 1.1
    bboxes, labels, scores = model.predict([numpy.zeros((3, 10, 10), numpy.float32)])
    assert bboxes[0].shape == (0, 4) and bboxes[0].dtype == numpy.float32
    assert labels[0].shape == (0,) and labels[0].dtype == numpy.int32
    assert scores[0].shape == (0,) and scores[0].dtype == numpy.float32
    assert model.predict([]) == ([], [], [])


def test_integer_images_are_taken_as_float32():
    model = tiny_ssd()
    model.use_preset("evaluate")
    img = numpy.random.RandomState(1).randint(0, 256, (3, 12, 14))
    a = model.predict([img.astype(numpy.uint8)])
    b = model.predict([img.astype(numpy.float32)])
    for x, y in zip(a, b):
        numpy.testing.assert_array_equal(x[0], y[0])


def test_to_device_moves_the_coder():
    model = tiny_ssd()
    assert model.to_device("@numpy") is model and model.coder.xp is numpy


def test_bad_images():
    model = tiny_ssd()
    with pytest.raises(ValueError, match=r"SSD.predict: imgs\[1\] looks like an HWC image"):
        model.predict([numpy.zeros((3, 20, 20), numpy.float32), numpy.zeros((20, 20, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"SSD.predict: imgs\[0\] must have 3 channels, got 1"):
        model.predict([numpy.zeros((1, 20, 20), numpy.float32)])
    with pytest.raises(ValueError, match=r"SSD.predict: imgs\[0\] must be a 3-dimensional CHW array"):
        model.predict([numpy.zeros((20, 20), numpy.float32)])
    with pytest.raises(TypeError, match=r"SSD.predict: imgs\[0\] must have an integer or floating-point dtype"):
        model.predict([numpy.zeros((3, 20, 20), bool)])


def test_package_exports_chainercv_names():
    import kusari.vision as chainercv
    from kusari.vision.links.model import ssd
    names = {"GradientScaling", "Multibox", "MultiboxCoder", "multibox_loss", "Normalize", "SSD", "SSD300", "SSD512",
             "VGG16", "VGG16Extractor300", "VGG16Extractor512", "random_crop_with_bbox_constraints",
             "random_distort", "resize_with_random_interpolation"}      # chainercv.links.model.ssd's __init__
    assert names <= set(vars(ssd))
    assert chainercv.links.SSD300 is ssd.SSD300 and chainercv.links.SSD512 is ssd.SSD512
    assert ssd.VGG16 is not chainercv.links.VGG16       # SSD's VGG-16, not the classifier
