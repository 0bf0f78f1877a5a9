import numpy
import pytest

from kusari.vision.visualizations import vis_bbox


def _kwargs(f, case):
    label, score, names, colors = f["inputs/label"], f["inputs/score"], list(f["inputs/label_names"]), f["inputs/colors"]
    return {"bbox_full": dict(label=label, score=score, label_names=names),
            "bbox_colors_unsorted": dict(label=label, score=score, label_names=names, instance_colors=colors,
                                         alpha=0.6, linewidth=2.0, sort_by_score=False),
            "bbox_scores_only": dict(score=score),
            "bbox_plain": dict(label=label),
            "bbox_empty": dict()}[case]


@pytest.mark.parametrize("case", ["bbox_full", "bbox_colors_unsorted", "bbox_scores_only", "bbox_plain", "bbox_empty"])
def test_draws_what_chainercv_draws(vis_fixture, assert_drawn_like, case):
    ax = vis_bbox(vis_fixture[f"{case}/img"], vis_fixture[f"{case}/bbox"], **_kwargs(vis_fixture, case))
    drawn = assert_drawn_like(case, ax)
    assert len(drawn["patches"]) == len(vis_fixture[f"{case}/bbox"])


def test_captions_are_sorted_by_score(vis_fixture):
    ax = vis_bbox(None, vis_fixture["bbox_full/bbox"], **_kwargs(vis_fixture, "bbox_full"))
    assert [t.get_text() for t in ax.texts] == ["bird: 0.12", "cat: 0.30", "bird: 0.50", "dog: 0.77", "person: 0.90"]


def test_bad_input():
    bbox = numpy.array([[0, 0, 5, 5]], numpy.float32)
    with pytest.raises(ValueError, match=r"vis_bbox: label has 2 entries but bbox has 1"):
        vis_bbox(None, bbox, label=numpy.zeros(2, numpy.int32))
    with pytest.raises(ValueError, match=r"vis_bbox: label 3 of instance 0 has no name \(label_names has 2 entries\)"):
        vis_bbox(None, bbox, label=numpy.array([3]), label_names=["a", "b"])
    with pytest.raises(ValueError, match=r"vis_bbox: bbox\[0\] = .* has y_max < y_min"):
        vis_bbox(None, bbox[:, ::-1])
