import numpy
import pytest

import kusari
import kusari.vision.transforms
from kusari.vision.utils.mask.scale_mask import scale_mask

pytestmark = pytest.mark.skipif(not hasattr(kusari.vision.transforms, "resize"),
                                reason="kusari.vision.transforms.resize is not in this branch yet")


@pytest.mark.parametrize("case", ["wide", "tall"])
@pytest.mark.parametrize("backend", ["cv2", "PIL"])
def test_matches_chainercv(utils_fixture, case, backend):
    key = f"scale_mask/{case}/{backend}"
    bbox = utils_fixture[f"{key}/bbox"]
    before = bbox.copy()
    with kusari.using_config("cv_resize_backend", backend):
        out = scale_mask(utils_fixture[f"{key}/mask"], bbox, int(utils_fixture[f"{key}/size"]))
    assert out.dtype == bool
    numpy.testing.assert_array_equal(out, utils_fixture[f"{key}/out"])
    numpy.testing.assert_array_equal(bbox, before)                # the boxes are not modified


def test_empty_mask_stays_empty():
    mask = numpy.zeros((2, 4, 6), bool)
    mask[1, 1:3, 2:5] = True
    bbox = numpy.array([[0, 0, 0, 0], [1, 2, 3, 5]], numpy.float32)
    out = scale_mask(mask, bbox, 8)
    assert out.shape == (2, 8, 12)
    assert not out[0].any()
    numpy.testing.assert_array_equal(numpy.argwhere(out[1]).min(axis=0), [2, 4])


def test_bad_input():
    with pytest.raises(ValueError, match=r"scale_mask: bbox must have shape \(R, 4\) = \(2, 4\) like mask"):
        scale_mask(numpy.zeros((2, 4, 6), bool), numpy.zeros((1, 4), numpy.float32), 8)
