"""kusari.vision.links.model.fpn.FPN: the pyramid's structure and arithmetic (its numbers are compared with
ChainerCV's through the detectors' fixtures, test_faster_rcnn_fpn_resnet.py)."""
import numpy
import pytest

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.model.fpn import FPN


class TwoMaps(kusari.Chain):
    """A base returning a map and its 2x2 average pooling."""

    mean = numpy.float32(5)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(3, 4, 1)

    def forward(self, x):
        h = self.conv(x)
        return h, F.average_pooling_2d(h, 2)


def test_pyramid_adds_the_upsampled_coarser_map_then_smooths():
    fpn = FPN(TwoMaps(), 2, (1, 1 / 2, 1 / 4))
    x = numpy.random.RandomState(0).standard_normal((2, 3, 8, 12)).astype(numpy.float32)
    hs = fpn(x)
    assert [h.shape for h in hs] == [(2, 256, 8, 12), (2, 256, 4, 6), (2, 256, 2, 3)]
    assert fpn.mean == 5
    # the reference: lateral 1x1 convolutions, nearest upsampling, 3x3 convolutions, stride-2 subsampling
    h0, h1 = fpn.base(x)
    inner1 = fpn.inner[1](h1).array
    inner0 = fpn.inner[0](h0).array + inner1.repeat(2, axis=2).repeat(2, axis=3)
    numpy.testing.assert_allclose(hs[0].array, fpn.outer[0](inner0).array, rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(hs[1].array, fpn.outer[1](inner1).array, rtol=1e-5, atol=1e-5)
    numpy.testing.assert_array_equal(hs[2].array, hs[1].array[:, :, ::2, ::2])
    assert sorted(name for name, _ in fpn.namedparams()) == [
        "/base/conv/W", "/base/conv/b"] + [f"/{side}/{i}/{p}" for side in ("inner", "outer") for i in (0, 1)
                                           for p in ("W", "b")]


def test_sizes_that_do_not_halve_are_refused():
    fpn = FPN(TwoMaps(), 2, (1, 1 / 2))
    with pytest.raises(ValueError, match=r"FPN: base map 1 of shape \(3, 3\) does not upsample to map 0 of "
                                         r"shape \(7, 7\)"):
        fpn(numpy.zeros((1, 3, 7, 7), numpy.float32))
