import numpy
import pytest

from kusari.vision.visualizations import vis_instance_segmentation
from kusari.vision.visualizations.colormap import voc_colormap


def _kwargs(f, case):
    label, score, names, colors = f["inputs/label"][:4], f["inputs/score"][:4], list(f["inputs/label_names"]), \
        f["inputs/colors"]
    return {"inst_full": dict(label=label, score=score, label_names=names),
            "inst_colors_unsorted": dict(label=label, score=score, label_names=names, instance_colors=colors,
                                         alpha=0.4, sort_by_score=False),
            "inst_plain": dict()}[case]


@pytest.mark.parametrize("case", ["inst_full", "inst_colors_unsorted", "inst_plain"])
def test_draws_what_chainercv_draws(vis_fixture, assert_drawn_like, case):
    ax = vis_instance_segmentation(vis_fixture[f"{case}/img"], vis_fixture[f"{case}/mask"], **_kwargs(vis_fixture, case))
    drawn = assert_drawn_like(case, ax)
    assert drawn["image_1"].dtype == numpy.uint8 and drawn["image_1"].shape == (12, 16, 4)


def test_voc_colormap():
    # PASCAL VOC's palette: background, aeroplane, bicycle, bird, ..., person (15), tvmonitor (20)
    colors = voc_colormap([0, 1, 2, 3, 7, 8, 15, 20])
    assert colors.dtype == numpy.float32
    numpy.testing.assert_array_equal(colors, [[0, 0, 0], [128, 0, 0], [0, 128, 0], [128, 128, 0], [128, 128, 128],
                                              [64, 0, 0], [192, 128, 128], [0, 64, 128]])


def test_bad_input():
    mask = numpy.zeros((2, 3, 4), bool)
    with pytest.raises(ValueError, match=r"vis_instance_segmentation: score has 3 entries but mask has 2"):
        vis_instance_segmentation(None, mask, score=numpy.zeros(3))
    with pytest.raises(ValueError, match=r"vis_instance_segmentation: img \(shape=\(3, 4, 4\)\) and mask"):
        vis_instance_segmentation(numpy.zeros((3, 4, 4)), mask)
