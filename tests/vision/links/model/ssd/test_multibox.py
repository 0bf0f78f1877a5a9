"""Multibox: its parameters and the layout of its outputs (the order of MultiboxCoder's default boxes)."""
import numpy
import pytest

import kusari
from kusari.vision.links.model.ssd import Multibox


def test_rows_are_pixels_then_boxes_then_maps():
    rng = numpy.random.RandomState(0)
    xs = [rng.standard_normal((2, 3, 4, 4)).astype(numpy.float32),
          rng.standard_normal((2, 5, 2, 2)).astype(numpy.float32)]
    multibox = Multibox(n_class=3, aspect_ratios=((2,), (2, 3)))
    mb_locs, mb_confs = multibox(xs)
    n_box = (4, 6)          # (len(ar) + 1) * 2 per pixel
    assert mb_locs.shape == (2, 16 * 4 + 4 * 6, 4) and mb_confs.shape == (2, 16 * 4 + 4 * 6, 3)
    row = 0
    for i, x in enumerate(xs):
        loc = multibox.loc[i](x).array                  # (B, n * 4, H, W)
        conf = multibox.conf[i](x).array
        _, _, H, W = loc.shape
        for y in range(H):
            for x_ in range(W):
                for j in range(n_box[i]):
                    numpy.testing.assert_array_equal(mb_locs.array[:, row], loc[:, 4 * j:4 * j + 4, y, x_])
                    numpy.testing.assert_array_equal(mb_confs.array[:, row], conf[:, 3 * j:3 * j + 3, y, x_])
                    row += 1
    assert row == mb_locs.shape[1]


def test_parameters_and_initialization():
    multibox = Multibox(n_class=4, aspect_ratios=((2,), (2, 3)))
    multibox([numpy.zeros((1, 8, 3, 3), numpy.float32), numpy.zeros((1, 6, 2, 2), numpy.float32)])
    saved = {}
    kusari.serializers.DictionarySerializer(saved).save(multibox)
    assert {k: v.shape for k, v in saved.items()} == {
        "loc/0/W": (16, 8, 3, 3), "loc/0/b": (16,), "loc/1/W": (24, 6, 3, 3), "loc/1/b": (24,),
        "conf/0/W": (16, 8, 3, 3), "conf/0/b": (16,), "conf/1/W": (24, 6, 3, 3), "conf/1/b": (24,)}
    assert (multibox.conf[0].b.array == 0).all()
    bound = numpy.sqrt(3 / (8 * 9))      # LeCun uniform: sqrt(3 / fan_in)
    assert numpy.abs(multibox.loc[0].W.array).max() <= bound and multibox.loc[0].W.array.std() > bound / 4


def test_bad_input():
    with pytest.raises(ValueError, match="Multibox: n_class must be a positive int, got 0"):
        Multibox(0, ((2,),))
    with pytest.raises(ValueError, match=r"Multibox: xs must hold one feature map per entry of aspect_ratios \(2\), "
                                         r"got 1"):
        Multibox(3, ((2,), (2,)))([numpy.zeros((1, 2, 3, 3), numpy.float32)])
