"""convolution_crop against ChainerCV's fixture (convolution_crop.npz)."""
import numpy
import pytest

import vision_segmentation_parity as parity
from kusari.vision.experimental.links.model.pspnet import convolution_crop

CASES = ["tiles", "exact", "short_height", "uint8"]
SLICES = ("y_slices", "x_slices", "crop_y_slices", "crop_x_slices")


def _bounds(slices):
    return numpy.array([[s.start, s.stop] for s in slices], numpy.int64).reshape(-1, 2)


@pytest.mark.parametrize("case", CASES)
def test_matches_chainercv(case):
    fixture = parity.load_fixture("convolution_crop.npz", case + "/")
    config = fixture["config"]
    crops, param = convolution_crop(fixture["img"], tuple(config["size"]), tuple(config["stride"]),
                                    return_param=True)
    assert crops.dtype == fixture["crops"].dtype
    numpy.testing.assert_array_equal(crops, fixture["crops"])
    assert sorted(param) == sorted(SLICES)
    for key in SLICES:
        numpy.testing.assert_array_equal(_bounds(param[key]), fixture[key], err_msg=key)
        assert all(type(s.start) is int and type(s.stop) is int for s in param[key])
    numpy.testing.assert_array_equal(convolution_crop(fixture["img"], tuple(config["size"]),
                                                      tuple(config["stride"])), crops)


def test_crops_hold_the_image():
    img = numpy.random.RandomState(0).uniform(0, 255, (2, 13, 17)).astype(numpy.float32)
    crops, param = convolution_crop(img, (6, 7), (4, 5), return_param=True)
    total, count = numpy.zeros_like(img), numpy.zeros(img.shape[1:])
    for crop, *slices in zip(crops, *(param[key] for key in SLICES)):
        y, x, crop_y, crop_x = slices
        numpy.testing.assert_array_equal(crop[:, crop_y, crop_x], img[:, y, x])
        total[:, y, x] += crop[:, crop_y, crop_x]
        count[y, x] += 1
        outside = numpy.ones(crop.shape[1:], bool)
        outside[crop_y, crop_x] = False
        assert not crop[:, outside].any()
    assert count.min() >= 1
    numpy.testing.assert_allclose(total / count, img, rtol=1e-6)


def test_an_image_shorter_than_size_minus_stride_gets_one_crop():
    """ChainerCV 0.13.1 returns no crop at all here (its fixture records it); kusari one, centred."""
    fixture = parity.load_fixture("convolution_crop.npz", "too_short/")
    assert fixture["crops"].size == 0
    config = fixture["config"]
    crops, param = convolution_crop(fixture["img"], tuple(config["size"]), tuple(config["stride"]),
                                    return_param=True)
    assert crops.shape == (3, 1, 8, 4)
    assert param["y_slices"] == [slice(0, 3)] * 3 and param["crop_y_slices"] == [slice(3, 6)] * 3
    assert param["x_slices"] == [slice(0, 3), slice(3, 7), slice(7, 10)]
    numpy.testing.assert_array_equal(crops[1, :, 3:6], fixture["img"][:, :, 3:7])
    assert not crops[:, :, :3].any() and not crops[:, :, 6:].any()


def test_bad_input():
    img = numpy.zeros((3, 10, 10), numpy.float32)
    with pytest.raises(ValueError, match="convolution_crop: img looks like an HWC image"):
        convolution_crop(numpy.zeros((10, 10, 3), numpy.float32), (4, 4), (2, 2))
    with pytest.raises(ValueError, match="convolution_crop: size and stride must be positive, got size=\\(4, 4\\), "
                                         "stride=\\(0, 2\\)"):
        convolution_crop(img, (4, 4), (0, 2))
    with pytest.raises(ValueError, match="convolution_crop: stride must be a \\(height, width\\) pair, got 2"):
        convolution_crop(img, (4, 4), 2)
