"""SegNetBasic against ChainerCV's fixture, and its arguments and bad input."""
import numpy
import pytest

import kusari
import vision_segmentation_parity as parity
from kusari import initializers
from kusari.vision.links import SegNetBasic
from kusari.vision.links.model.segnet import SegNetBasic as SegNetBasicFromPackage


@pytest.fixture(scope="module")
def fixture():
    return parity.load_fixture("segnet_basic.npz")


@pytest.fixture
def model(fixture, tmp_path):
    kwargs = fixture["config"]["kwargs"]
    return parity.seeded_model(lambda **more: SegNetBasic(**kwargs, **more), fixture, tmp_path)


def test_raw_scores_match_chainercv(model, fixture):
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        y = model(fixture["x"])
    # an odd height pools to one more than it unpools to: ChainerCV crops, and so must the scores
    assert y.shape == (2, 4, 22, 30)
    parity.assert_close(y, fixture["y"], "segnet_basic")


def test_predict_matches_chainercv(model, fixture):
    ties = parity.check_predict(model, fixture, "segnet_basic")
    assert ties == {"default": 0}


def test_package_and_children():
    assert SegNetBasicFromPackage is SegNetBasic
    model = SegNetBasic(n_class=3, initialW=initializers.Zero())
    assert model.n_class == 3
    assert model.conv1.W.array is None                       # input channels from the first input
    assert model.conv_decode1_bn.beta.array[0] == numpy.float32(0.001)
    assert model.conv_classifier.W.shape == (3, 64, 1, 1) and model.conv_classifier.b is not None


def test_predict_takes_integer_images_and_returns_int32_labels():
    model = SegNetBasic(n_class=3)
    img = numpy.random.RandomState(0).randint(0, 256, (3, 17, 18)).astype(numpy.uint8)
    label, = model.predict([img])
    assert label.dtype == numpy.int32 and label.shape == (17, 18)
    expected, = model.predict([img.astype(numpy.float32)])
    numpy.testing.assert_array_equal(label, expected)


def test_bad_input():
    model = SegNetBasic(n_class=3, initialW=initializers.Zero())
    with pytest.raises(ValueError, match=r"SegNetBasic.predict: imgs\[1\] looks like an HWC image "
                                         r"\(shape=\(16, 16, 3\), dtype=float32\)"):
        model.predict([numpy.zeros((3, 16, 16), numpy.float32), numpy.zeros((16, 16, 3), numpy.float32)])
    with pytest.raises(ValueError, match=r"SegNetBasic.predict: imgs\[0\] must have 3 channels, got 1"):
        model.predict([numpy.zeros((1, 16, 16), numpy.float32)])
    with pytest.raises(TypeError, match=r"SegNetBasic.predict: imgs\[0\] must have an integer or floating-point "
                                        r"dtype, got bool"):
        model.predict([numpy.zeros((3, 16, 16), bool)])
    with pytest.raises(ValueError, match="SegNetBasic: n_class must be specified"):
        SegNetBasic()
    with pytest.raises(ValueError, match="SegNetBasic: pretrained_model='camvid' was trained with n_class=11, "
                                         "which conflicts with n_class=12"):
        SegNetBasic(n_class=12, pretrained_model="camvid")


def test_a_weight_file_of_another_model_is_refused(tmp_path):
    other = SegNetBasic(n_class=5, initialW=initializers.Zero())
    with kusari.using_config("train", False):
        other(numpy.zeros((1, 3, 16, 16), numpy.float32))
    path = str(tmp_path / "five.npz")
    kusari.serializers.save_npz(path, other)
    with pytest.raises(ValueError, match=r"SegNetBasic: .*five.npz does not hold the weights of this architecture "
                                         r"\(SegNetBasic\): shape mismatches: conv_classifier/W: file "
                                         r"\(5, 64, 1, 1\), model \(4, 64, 1, 1\)"):
        SegNetBasic(n_class=4, pretrained_model=path)
