import numpy
import pytest

from kusari.vision.visualizations import vis_semantic_segmentation


def _kwargs(f, case):
    names = list(f["inputs/label_names"])
    return {"seg_names": dict(label_names=names),
            "seg_colors_alpha": dict(label_colors=[(1, 2, 3), (200, 100, 50), (0, 255, 0), (9, 9, 9)],
                                     ignore_label_color=(255, 255, 255), alpha=0.5),
            "seg_present_only": dict(label_names=names, all_label_names_in_legend=True),
            "seg_default": dict()}[case]


@pytest.mark.parametrize("case", ["seg_names", "seg_colors_alpha", "seg_present_only", "seg_default"])
def test_draws_what_chainercv_draws(vis_fixture, assert_drawn_like, case):
    ax, legend = vis_semantic_segmentation(vis_fixture[f"{case}/img"], vis_fixture[f"{case}/seg"],
                                           **_kwargs(vis_fixture, case))
    drawn = assert_drawn_like(case, ax, legend)
    assert drawn["n_images"] == 2 and drawn["image_1"].shape == (12, 16, 4)


def test_legend_of_present_classes_only():
    label = numpy.array([[0, 2], [-1, 2]], numpy.int32)
    _, legend = vis_semantic_segmentation(None, label, label_names=["a", "b", "c"], all_label_names_in_legend=True)
    assert [h.get_label() for h in legend] == ["a", "c"]
    _, legend = vis_semantic_segmentation(None, label, label_names=["a", "b", "c"])
    assert [h.get_label() for h in legend] == ["a", "b", "c"]


def test_bad_input():
    label = numpy.array([[0, 3]], numpy.int32)
    with pytest.raises(ValueError, match=r"vis_semantic_segmentation: label holds class 3 but there are 2 classes"):
        vis_semantic_segmentation(None, label, label_names=["a", "b"])
    with pytest.raises(ValueError, match=r"vis_semantic_segmentation: label_colors has 1 colours for 2 classes"):
        vis_semantic_segmentation(None, label, label_names=["a", "b"], label_colors=[(0, 0, 0)])
    with pytest.raises(ValueError, match=r"vis_semantic_segmentation: img \(shape=\(3, 2, 2\)\) and label"):
        vis_semantic_segmentation(numpy.zeros((3, 2, 2)), label)
