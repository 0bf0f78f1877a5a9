import numpy
import pytest

from kusari.vision.visualizations import vis_image


def test_draws_the_uint8_image_like_chainercv(vis_fixture, assert_drawn_like):
    img = vis_fixture["image/img"]
    ax = vis_image(img)
    drawn = assert_drawn_like("image", ax)
    assert drawn["image_0"].dtype == numpy.uint8 and drawn["image_0"].shape == (12, 16, 3)


def test_none_draws_nothing_on_the_given_axis():
    import matplotlib.pyplot as plt
    ax = plt.figure().add_subplot(1, 1, 1)
    assert vis_image(None, ax=ax) is ax
    assert len(ax.images) == 0


def test_hwc_image_is_rejected():
    with pytest.raises(ValueError, match=r"vis_image: img must be a CHW RGB image of shape \(3, H, W\), "
                                         r"got shape=\(12, 16, 3\) \(HWC\?"):
        vis_image(numpy.zeros((12, 16, 3), numpy.float32))
