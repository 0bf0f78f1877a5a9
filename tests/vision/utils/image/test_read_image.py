"""kusari.vision.utils.read_image against ChainerCV 0.13.1 (both backends; RGB, RGBA, L, LA, P PNGs and RGB,
L JPEGs; every color / alpha option; several dtypes; paths and file objects), and its errors."""
import numpy
import pytest
from vision_chainercv_cases import replay

import kusari
from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.read_image",)
BACKENDS = ("cv2", "PIL")


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


@pytest.mark.parametrize("backend", BACKENDS)
def test_roundtrip_with_write_image(backend, tmp_path):
    img = numpy.random.RandomState(0).randint(0, 256, (3, 5, 4)).astype(numpy.float32)
    utils.write_image(img, str(tmp_path / "a.png"))
    with kusari.using_config("cv_read_image_backend", backend):
        numpy.testing.assert_array_equal(utils.read_image(str(tmp_path / "a.png")), img)
        # a 4-pixel-wide grayscale image (ChainerCV's PIL path took it for an RGBA one)
        gray = utils.read_image(str(tmp_path / "a.png"), dtype=numpy.uint8, color=False)
    assert gray.shape == (1, 5, 4) and gray.dtype == numpy.uint8


@pytest.mark.parametrize("backend", BACKENDS)
def test_missing_file(backend, tmp_path):
    with kusari.using_config("cv_read_image_backend", backend), pytest.raises(FileNotFoundError):
        utils.read_image(str(tmp_path / "missing.png"))


def test_unreadable_file_with_cv2(tmp_path):
    (tmp_path / "bad.png").write_bytes(b"not an image")
    with kusari.using_config("cv_read_image_backend", "cv2"), pytest.raises(ValueError, match="OpenCV cannot read"):
        utils.read_image(str(tmp_path / "bad.png"))


def test_alpha_option_is_checked(tmp_path):
    with pytest.raises(ValueError, match=r"read_image: alpha must be one of \(None, 'ignore', 'blend_with_white', "
                                         r"'blend_with_black'\), got 'drop'"):
        utils.read_image(str(tmp_path / "a.png"), alpha="drop")
