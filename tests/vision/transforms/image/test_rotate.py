"""kusari.vision.transforms.rotate against ChainerCV 0.13.1: its cv2 path (OpenCV 4's fixed-point warpAffine,
reproduced in NumPy, for uint8, uint16, int16, float32 and float64) and its PIL path; the fill of every channel."""
import numpy
import pytest
from vision_chainercv_cases import replay

import kusari
from kusari.vision import transforms

CHAINERCV_FUNCTIONS = ("transforms.rotate",)
IMG = numpy.random.RandomState(0).uniform(0, 255, (3, 7, 9)).astype(numpy.float32)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


@pytest.mark.parametrize("backend", ["cv2", "PIL"])
def test_fill_reaches_every_channel(backend):
    with kusari.using_config("cv_rotate_backend", backend):
        out = transforms.rotate(numpy.zeros((3, 8, 8), numpy.float32), 45, fill=7.0)
    assert out.shape == (3, 12, 12)
    numpy.testing.assert_array_equal(out[:, 0, 0], [7, 7, 7])   # a corner the image does not reach


def test_cv2_refuses_dtypes_opencv_cannot_warp():
    with kusari.using_config("cv_rotate_backend", "cv2"):
        with pytest.raises(TypeError, match=r"rotate: the cv2 backend .* got int32 .* use the 'PIL' backend"):
            transforms.rotate(IMG.astype(numpy.int32), 30)


def test_pil_rounds_integer_images():
    img = numpy.random.RandomState(1).randint(0, 256, (3, 7, 9)).astype(numpy.uint8)
    with kusari.using_config("cv_rotate_backend", "PIL"):
        out = transforms.rotate(img, 30)
        reference = transforms.rotate(img.astype(numpy.float32), 30)
    assert out.dtype == numpy.uint8
    numpy.testing.assert_array_equal(out, numpy.round(reference).astype(numpy.uint8))


@pytest.mark.parametrize("backend", ["cv2", "PIL"])
def test_interpolation_must_be_nearest_bilinear_or_bicubic(backend):
    with kusari.using_config("cv_rotate_backend", backend), pytest.raises(ValueError, match="rotate: interpolation"):
        transforms.rotate(IMG, 30, interpolation=1)


def test_fill_must_be_a_number():
    with pytest.raises(TypeError, match=r"rotate: fill must be a real number, got \(1, 2, 3\)"):
        transforms.rotate(IMG, 30, fill=(1, 2, 3))
