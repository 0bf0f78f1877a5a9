"""kusari.vision.utils.write_image against ChainerCV 0.13.1 (PNG, BMP, JPEG; 1, 3 and 4 channels; float, uint8
and wrapping int32 values; paths and file objects): the files decode to the same pixels. And its errors."""
import io

import numpy
import pytest
from PIL import Image
from vision_chainercv_cases import replay

from kusari.vision import utils

CHAINERCV_FUNCTIONS = ("utils.write_image",)


def test_matches_chainercv(chainercv_case, tmp_path):
    replay(chainercv_case, tmp_path)


def test_values_outside_the_cast_range_are_refused(tmp_path):
    img = numpy.full((3, 4, 5), 100, numpy.float32)
    img[0, 0, 0] = 256.0
    with pytest.raises(ValueError, match=r"write_image: img holds values outside \(-1, 256\) \(min 100.0, max 256.0"):
        utils.write_image(img, str(tmp_path / "a.png"))
    img[0, 0, 0] = numpy.nan
    with pytest.raises(ValueError, match="write_image: img holds values outside"):
        utils.write_image(img, str(tmp_path / "a.png"))
    assert not (tmp_path / "a.png").exists()


def test_channels(tmp_path):
    with pytest.raises(ValueError, match=r"write_image: img must have 1 or 3 or 4 channels, got 2"):
        utils.write_image(numpy.zeros((2, 4, 5)), str(tmp_path / "a.png"))


def test_a_failed_write_leaves_no_file(tmp_path):
    # JPEG cannot hold an alpha channel: Pillow refuses, and neither the target nor a temporary file remains
    with pytest.raises(OSError):
        utils.write_image(numpy.zeros((4, 4, 5), numpy.uint8), str(tmp_path / "a.jpg"))
    assert list(tmp_path.iterdir()) == []


def test_file_object_needs_format():
    buffer = io.BytesIO()
    utils.write_image(numpy.zeros((1, 4, 5), numpy.uint8), buffer, format="png")
    with Image.open(io.BytesIO(buffer.getvalue())) as image:
        assert image.mode == "L" and image.size == (5, 4)
    with pytest.raises(ValueError):
        utils.write_image(numpy.zeros((1, 4, 5), numpy.uint8), io.BytesIO())
