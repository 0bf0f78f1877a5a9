"""kusari.vision.datasets.voc.voc_utils: ChainerCV 0.13.1's label names, colours and URLs; instance masks
from label images."""
import dataset_parity
import numpy
import pytest

from kusari.vision.datasets.voc import voc_utils


@pytest.mark.parametrize("name", [n for n in dataset_parity.record()["constants"] if n.startswith("voc.")])
def test_constants_match_chainercv(name):
    dataset_parity.check_constant(name)


def test_image_wise_to_instance_wise():
    label_img = numpy.array([[0, 3, 3, -1], [0, 3, 7, 7], [0, 0, 7, 7]], dtype=numpy.int32)
    inst_img = numpy.array([[-1, 4, 4, -1], [-1, 4, 2, 2], [-1, -1, 2, 2]], dtype=numpy.int32)
    mask, label = voc_utils.image_wise_to_instance_wise(label_img, inst_img)
    assert mask.dtype == bool and mask.shape == (2, 3, 4) and label.dtype == numpy.int32
    numpy.testing.assert_array_equal(mask[0], inst_img == 2)
    numpy.testing.assert_array_equal(mask[1], inst_img == 4)
    numpy.testing.assert_array_equal(label, [6, 2])


def test_image_wise_to_instance_wise_without_instances_gives_empty_arrays():
    mask, label = voc_utils.image_wise_to_instance_wise(numpy.zeros((2, 3), numpy.int32), numpy.full((2, 3), -1, numpy.int32))
    assert mask.shape == (0, 2, 3) and mask.dtype == bool and label.shape == (0,) and label.dtype == numpy.int32


def test_an_instance_on_the_background_is_refused():
    with pytest.raises(ValueError, match="instance 1 covers pixels of class 0"):
        voc_utils.image_wise_to_instance_wise(numpy.array([[0, 2]], numpy.int32), numpy.array([[1, 1]], numpy.int32))
