"""Decoder and DeepLabV3plusXception65 against ChainerCV's fixtures, and their arguments and bad input."""
import numpy
import pytest

import kusari
import vision_segmentation_parity as parity
from kusari.vision import links
from kusari.vision.links import Conv2DBNActiv
from kusari.vision.links.model import deeplab
from kusari.vision.links.model.deeplab import Decoder, DeepLabV3plus, DeepLabV3plusXception65, SeparableASPP


class TinyExtractor(kusari.Chain):
    """(lowlevel, highlevel) at strides 2 and 4, 4 channels each: a small stand-in for Xception65."""

    mean = numpy.full((3, 1, 1), 127.5, numpy.float32)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.low = Conv2DBNActiv(3, 4, 3, 2, 1)
            self.high = Conv2DBNActiv(4, 4, 3, 2, 1)

    def forward(self, x):
        low = self.low(x)
        return low, self.high(low)


def tiny_deeplab(**kwargs):
    return DeepLabV3plus(TinyExtractor(), SeparableASPP(4, 4, (1, 2, 3)), Decoder(4, 3, 2, 4), **kwargs)


@pytest.fixture(scope="module")
def fixture():
    return parity.load_fixture("deeplab_v3plus_xception65.npz")


@pytest.fixture(scope="module")
def model(fixture, tmp_path_factory):
    config = fixture["config"]["kwargs"]
    kwargs = dict(config, min_input_size=tuple(config["min_input_size"]))
    return parity.seeded_model(lambda **more: DeepLabV3plusXception65(**kwargs, **more), fixture,
                               tmp_path_factory.mktemp("deeplab"))


def test_exports():
    assert links.DeepLabV3plusXception65 is DeepLabV3plusXception65
    assert {"SeparableASPP", "Decoder", "DeepLabV3plus", "DeepLabV3plusXception65", "Xception65",
            "XceptionBlock"} <= set(dir(deeplab))


def test_decoder_matches_chainercv(tmp_path):
    parity.check_part(Decoder, parity.load_fixture("deeplab_parts.npz", "decoder/"), tmp_path)


@pytest.mark.slow
def test_raw_scores_match_chainercv(model, fixture):
    x = fixture["x"]
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        parity.assert_close(model.aspp(model.feature_extractor(x)[1]), fixture["aspp"], "aspp")
        y = model(x)
    assert y.shape == (1, 8, 10, 12)
    parity.assert_close(y, fixture["y"], "deeplab_v3plus_xception65")


def _chainercv_normalization(attributes):
    """ChainerCV 0.13.1 divides the summed probabilities by 2 * len(scales) without flip and by len(scales)
    with it (the two swapped); kusari takes their mean. The labels are the same."""
    return 2.0 if not attributes.get("flip") else 0.5


@pytest.mark.slow
def test_predict_matches_chainercv(model, fixture):
    ties = parity.check_predict(model, fixture, "deeplab_v3plus_xception65", _chainercv_normalization)
    # near-ties exist (ChainerCV's smallest top-2 gaps are about 2e-6): none has flipped so far
    assert set(ties) == {"default", "scales_flip"}
    model.scales, model.flip = (1.0,), False


def test_prepare_pads_with_the_mean_and_scales_to_unit_range():
    model = tiny_deeplab(min_input_size=6)
    assert model.min_input_size == (6, 6) and model.scales == (1.0,) and model.flip is False
    img = numpy.full((3, 4, 8), 255, numpy.float32)
    x = model.prepare(img)
    assert x.shape == (3, 6, 8) and x.dtype == numpy.float32
    numpy.testing.assert_array_equal(x[:, :4], 1.0)
    numpy.testing.assert_array_equal(x[:, 4:], 0.0)      # the mean, 127.5


def test_predict_averages_scales_and_flips():
    model = tiny_deeplab(min_input_size=(8, 8))
    img = numpy.random.RandomState(0).uniform(0, 255, (3, 13, 10)).astype(numpy.float32)
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        probabilities = [model._get_proba(img, scale, flip) for scale in (1.0, 0.5) for flip in (False, True)]
    for p in probabilities:
        assert p.shape == (3, 13, 10) and p.dtype == numpy.float32
        numpy.testing.assert_allclose(p.sum(axis=0), 1, rtol=1e-5)
    model.scales, model.flip = (1.0, 0.5), True
    with parity.argmax_inputs() as seen:
        label, = model.predict([img])
    numpy.testing.assert_allclose(seen[-1], sum(probabilities) / 4, rtol=1e-6)
    numpy.testing.assert_array_equal(label, numpy.argmax(sum(probabilities), axis=0))
    assert label.dtype == numpy.int32


def test_pretrained_arguments():
    with pytest.raises(ValueError, match="DeepLabV3plusXception65: pretrained_model='voc' was trained with "
                                         "n_class=21, which conflicts with n_class=3"):
        DeepLabV3plusXception65(n_class=3, pretrained_model="voc")
    with pytest.raises(ValueError, match="DeepLabV3plusXception65: pretrained_model='cityscapes' was trained with "
                                         "min_input_size=\\(1025, 2049\\), which conflicts with "
                                         "min_input_size=\\(513, 513\\)"):
        DeepLabV3plusXception65(pretrained_model="cityscapes", min_input_size=(513, 513))
    with pytest.raises(ValueError, match="DeepLabV3plusXception65: n_class must be specified"):
        DeepLabV3plusXception65()


def test_bad_input():
    model = tiny_deeplab(min_input_size=8)
    with pytest.raises(ValueError, match=r"DeepLabV3plus.predict: imgs\[0\] looks like an HWC image"):
        model.predict([numpy.zeros((20, 20, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"DeepLabV3plus.predict: imgs\[1\] must have 3 channels, got 4"):
        model.predict([numpy.zeros((3, 20, 20), numpy.float32), numpy.zeros((4, 20, 20), numpy.float32)])
    model.scales = (0.01,)
    with pytest.raises(ValueError, match="DeepLabV3plus.predict: scale 0.01 shrinks a 20x30 image to 0x0 pixels"):
        model.predict([numpy.zeros((3, 20, 30), numpy.float32)])
