import numpy
import pytest

from kusari.vision.visualizations import vis_point


def test_draws_visible_points_like_chainercv(vis_fixture, assert_drawn_like):
    ax = vis_point(vis_fixture["point/img"], vis_fixture["point/point"], vis_fixture["point/visible"])
    drawn = assert_drawn_like("point", ax)
    assert len(drawn["points"]) == int(vis_fixture["point/visible"].sum())


def test_all_points_and_a_list_of_instances(vis_fixture, assert_drawn_like):
    points = list(vis_fixture["point_all_visible/point"])
    assert_drawn_like("point_all_visible", vis_point(vis_fixture["point_all_visible/img"], points))


def test_bad_input():
    with pytest.raises(ValueError, match=r"vis_point: point\[0\] must have shape \(K, 2\) as \(y, x\), got shape=\(3,\)"):
        vis_point(None, numpy.zeros((1, 3)))
    with pytest.raises(ValueError, match=r"vis_point: visible has 2 instances but point has 1"):
        vis_point(None, numpy.zeros((1, 3, 2)), numpy.ones((2, 3), bool))
