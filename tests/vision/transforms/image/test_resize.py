"""kusari.vision.transforms.resize against ChainerCV 0.13.1 (both backends, every interpolation, 1, 3 and 5
channels, uint8 and float64 with OpenCV), and what the PIL backend takes beyond ChainerCV's."""
import numpy
import pytest
from vision_chainercv_cases import replay

import kusari
from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.resize",)
IMG = numpy.random.RandomState(0).uniform(0, 255, (3, 7, 9)).astype(numpy.float32)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_cv2_takes_pils_four_interpolations():
    with kusari.using_config("cv_resize_backend", "cv2"):
        with pytest.raises(ValueError, match=r"resize: interpolation must be one of PIL.Image.NEAREST \(0\).* got 4"):
            transforms.resize(IMG, (3, 4), interpolation=4)


def test_pil_backend_takes_box():
    img = numpy.arange(2 * 4 * 6, dtype=numpy.float32).reshape(2, 4, 6)
    with kusari.using_config("cv_resize_backend", "PIL"):
        out = transforms.resize(img, (2, 3), interpolation=4)   # BOX: the mean of each 2 x 2 cell
    expected = img.reshape(2, 2, 2, 3, 2).mean(axis=(2, 4))
    numpy.testing.assert_allclose(out, expected, rtol=1e-6)


def test_pil_backend_computes_other_dtypes_in_float32():
    # ChainerCV's PIL path read non-float32 buffers as float32 ('F' mode); kusari casts through float32
    img = numpy.random.RandomState(1).randint(0, 256, (3, 7, 9)).astype(numpy.uint8)
    with kusari.using_config("cv_resize_backend", "PIL"):
        out = transforms.resize(img, (5, 4))
        reference = transforms.resize(img.astype(numpy.float32), (5, 4))
    assert out.dtype == numpy.uint8
    numpy.testing.assert_array_equal(out, reference.astype(numpy.uint8))
