"""kusari.vision.datasets.COCOInstanceSegmentationDataset against ChainerCV 0.13.1 on a synthetic COCO layout
(polygons, run-length masks, crowds, a box of zero area, a mask of the wrong size)."""
import os

import dataset_parity
import numpy
import pytest

from kusari.vision.datasets import COCOInstanceSegmentationDataset


@pytest.mark.parametrize("name", dataset_parity.case_names("COCOInstanceSegmentationDataset"))
def test_matches_chainercv(name, layouts):
    dataset_parity.check_case(name, layouts)


def test_masks_line_up_with_labels_and_a_mask_of_the_wrong_size_is_empty(layouts):
    dataset = COCOInstanceSegmentationDataset(os.path.join(layouts, "coco"), "val", return_bbox=True)
    with pytest.warns(UserWarning, match=r"the mask of annotation \d+ has size \(\d+, \d+\) but its image \(\d+, \d+\); it is left empty"):
        img, mask, label, bbox = dataset[0]
    assert len(mask) == len(label) == len(bbox)
    assert not mask[-1].any() and all(m.any() for m in mask[:-1])
    for m, box in zip(mask[:-1], bbox):   # each mask lies in (or on the edge of) its box
        ys, xs = numpy.nonzero(m)
        assert ys.min() >= numpy.floor(box[0]) - 1 and ys.max() <= numpy.ceil(box[2]) + 1
        assert xs.min() >= numpy.floor(box[1]) - 1 and xs.max() <= numpy.ceil(box[3]) + 1
