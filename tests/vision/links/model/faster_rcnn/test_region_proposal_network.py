"""RegionProposalNetwork: structure, output layout, anchors and scales. Its numbers against ChainerCV's are
checked through FasterRCNNVGG16 (test_faster_rcnn_vgg.py)."""
import numpy
import pytest

import kusari
from kusari import initializers
from kusari.vision.links.model.faster_rcnn import ProposalCreator, RegionProposalNetwork, generate_anchor_base


def _rpn(**kwargs):
    kwargs = {"ratios": [0.5, 1, 2], "anchor_scales": [2, 4], "feat_stride": 4,
              "initialW": initializers.Normal(0.3, rng=numpy.random.RandomState(0)), **kwargs}
    return RegionProposalNetwork(3, 5, **kwargs)


def test_structure():
    rpn = _rpn(proposal_creator_params={"n_test_post_nms": 7})
    assert sorted(name for name, _ in rpn.namedlinks(skipself=True)) == ["/conv1", "/loc", "/score"]
    assert rpn.conv1.W.shape == (5, 3, 3, 3) and rpn.score.W.shape == (12, 5, 1, 1) and rpn.loc.W.shape == (24, 5, 1, 1)
    assert isinstance(rpn.proposal_layer, ProposalCreator) and rpn.proposal_layer.n_test_post_nms == 7
    numpy.testing.assert_array_equal(rpn.anchor_base, generate_anchor_base(ratios=[0.5, 1, 2], anchor_scales=[2, 4]))
    default = RegionProposalNetwork()
    assert default.conv1.W.shape == (512, 512, 3, 3) and default.score.W.shape == (18, 512, 1, 1)
    assert default.feat_stride == 16


def test_outputs():
    rpn = _rpn()
    x = numpy.random.RandomState(1).standard_normal((2, 3, 5, 6)).astype(numpy.float32)
    with kusari.using_config("train", False):
        rpn_locs, rpn_scores, rois, roi_indices, anchor = rpn(x, (20, 24), scales=[1.0, 0.5])
    assert rpn_locs.shape == (2, 5 * 6 * 6, 4) and rpn_scores.shape == (2, 5 * 6 * 6, 2)
    assert anchor.shape == (5 * 6 * 6, 4) and anchor.dtype == numpy.float32
    # cell-major: the anchors of cell (i, j) are the base anchors shifted by (4 i, 4 j)
    base = rpn.anchor_base
    numpy.testing.assert_array_equal(anchor[:6], base)
    numpy.testing.assert_allclose(anchor[6:12], base + [0, 4, 0, 4], rtol=1e-6)
    numpy.testing.assert_allclose(anchor[6 * 6:6 * 7], base + [4, 0, 4, 0], rtol=1e-6)
    # rpn_locs[n, (i * W + j) * A + a] is loc's channel 4 a + k at (i, j)
    h = numpy.maximum(rpn.conv1(x).array, 0)
    loc = rpn.loc(h).array
    numpy.testing.assert_allclose(rpn_locs.array[1, (2 * 6 + 3) * 6 + 4], loc[1, 16:20, 2, 3], rtol=1e-6)
    score = rpn.score(h).array
    numpy.testing.assert_allclose(rpn_scores.array[0, (4 * 6 + 5) * 6 + 1], score[0, 2:4, 4, 5], rtol=1e-6)
    # the proposals of each image come from its own outputs, with its own scale
    assert rois.dtype == numpy.float32 and roi_indices.dtype == numpy.int32
    for i, scale in enumerate([1.0, 0.5]):
        with kusari.using_config("train", False):
            expected = rpn.proposal_layer(rpn_locs.array[i], rpn_scores.array[i, :, 1], anchor, (20, 24), scale)
        numpy.testing.assert_array_equal(rois[roi_indices == i], expected)


@pytest.mark.parametrize("scales", [None, 1.0, [1.0, 1.0], kusari.Variable(numpy.ones(2, numpy.float32))])
def test_scales(scales):
    rpn = _rpn()
    x = numpy.random.RandomState(1).standard_normal((2, 3, 5, 6)).astype(numpy.float32)
    with kusari.using_config("train", False):
        reference = rpn(x, (20, 24))[2]
        numpy.testing.assert_array_equal(rpn(x, (20, 24), scales)[2], reference)


def test_bad_scales():
    x = numpy.zeros((2, 3, 5, 6), numpy.float32)
    with pytest.raises(ValueError, match=r"RegionProposalNetwork: scales must hold one value per image \(2\), got 3"):
        _rpn()(x, (20, 24), [1, 1, 1])


def test_gradient_flows_to_the_convolutions():
    rpn = _rpn()
    x = numpy.random.RandomState(2).standard_normal((1, 3, 4, 4)).astype(numpy.float32)
    rpn_locs, rpn_scores, _, _, _ = rpn(x, (16, 16))
    (kusari.functions.sum(rpn_locs) + kusari.functions.sum(rpn_scores)).backward()
    assert all(p.grad is not None and numpy.abs(p.grad).sum() > 0 for p in rpn.params())
