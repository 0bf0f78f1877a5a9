"""RegionProposalNetwork: Faster R-CNN's class-agnostic proposal network (Ren et al., 2015)."""
from collections.abc import Iterable

import numpy

import kusari
from kusari import backend
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.model.faster_rcnn.utils.generate_anchor_base import generate_anchor_base
from kusari.vision.links.model.faster_rcnn.utils.proposal_creator import ProposalCreator


class RegionProposalNetwork(kusari.Chain):
    """Predicts, at each feature-map cell, an objectness score and box offsets for each of its anchors,
    and turns them into proposals with a :class:`ProposalCreator`.

    Children: ``conv1`` (3x3, ``in_channels`` -> ``mid_channels``, followed by ReLU), ``score``
    (1x1, ``2A`` channels: background and foreground score of each of the ``A`` anchors) and ``loc``
    (1x1, ``4A`` channels: :func:`bbox2loc` offsets). ``anchor_base`` holds the ``A`` anchors of
    one cell (:func:`generate_anchor_base`), shifted by ``feat_stride`` pixels from cell to cell.

    Parameters
    ----------
    in_channels, mid_channels : int
        Channels of the input features and of ``conv1``'s output.
    ratios : sequence of floats
        Aspect ratios (height over width) of the anchors.
    anchor_scales : sequence of numbers
        Anchor sides in multiples of ``feat_stride``.
    feat_stride : int
        Image pixels per feature-map cell.
    initialW : initializer or None
        Of the three convolutions (None: kusari's default, LeCun normal).
    proposal_creator_params : dict
        Keyword arguments of the :class:`ProposalCreator` (``proposal_layer``).
    """

    def __init__(self, in_channels=512, mid_channels=512, ratios=[0.5, 1, 2], anchor_scales=[8, 16, 32],
                 feat_stride=16, initialW=None, proposal_creator_params={}):
        super().__init__()
        self.anchor_base = generate_anchor_base(anchor_scales=anchor_scales, ratios=ratios)
        self.feat_stride = feat_stride
        self.proposal_layer = ProposalCreator(**proposal_creator_params)
        n_anchor = self.anchor_base.shape[0]
        with self.init_scope():
            self.conv1 = L.Convolution2D(in_channels, mid_channels, 3, 1, 1, initialW=initialW)
            self.score = L.Convolution2D(mid_channels, n_anchor * 2, 1, 1, 0, initialW=initialW)
            self.loc = L.Convolution2D(mid_channels, n_anchor * 4, 1, 1, 0, initialW=initialW)

    def forward(self, x, img_size, scales=None):
        """Scores, offsets and proposals for a batch of feature maps.

        Parameters
        ----------
        x : kusari.Variable or array, shape (N, C, H, W)
            Features of N images.
        img_size : tuple of two ints
            ``(height, width)`` of the (preprocessed) images.
        scales : float, sequence of N floats or None
            How much preprocessing scaled each image (None: 1); see :class:`ProposalCreator`.

        Returns
        -------
        rpn_locs : kusari.Variable, shape (N, H W A, 4)
            Offsets predicted for each anchor, cell-major (row, column, anchor).
        rpn_scores : kusari.Variable, shape (N, H W A, 2)
            Background and foreground scores of each anchor (before softmax).
        rois : array, shape (R', 4)
            The proposals of all images, concatenated (``R' = sum R_i``).
        roi_indices : array of int32, shape (R',)
            The image each proposal belongs to.
        anchor : array of float32, shape (H W A, 4)
            The anchors, in the order of ``rpn_locs``.
        """
        n, _, hh, ww = x.shape
        if scales is None:
            scales = [1.0] * n
        if isinstance(scales, kusari.Variable):
            scales = scales.array
        if not isinstance(scales, Iterable):
            scales = [scales] * n
        if len(scales) != n:
            raise ValueError(f"RegionProposalNetwork: scales must hold one value per image ({n}), "
                             f"got {len(scales)}")
        anchor = _enumerate_shifted_anchor(self.xp.asarray(self.anchor_base), self.feat_stride, hh, ww)
        n_anchor = anchor.shape[0] // (hh * ww)
        h = F.relu(self.conv1(x))

        rpn_locs = self.loc(h).transpose((0, 2, 3, 1)).reshape((n, -1, 4))
        rpn_scores = self.score(h).transpose((0, 2, 3, 1))
        rpn_fg_scores = rpn_scores.array.reshape((n, hh * ww * n_anchor, 2))[:, :, 1]
        rpn_scores = rpn_scores.reshape((n, -1, 2))

        rois = [self.proposal_layer(rpn_locs.array[i], rpn_fg_scores[i], anchor, img_size, scale=scales[i])
                for i in range(n)]
        roi_indices = [self.xp.full((len(roi),), i, numpy.int32) for i, roi in enumerate(rois)]
        return (rpn_locs, rpn_scores, self.xp.concatenate(rois, axis=0),
                self.xp.concatenate(roi_indices, axis=0), anchor)


def _enumerate_shifted_anchor(anchor_base, feat_stride, height, width):
    """(height * width * A, 4) float32: the A base anchors shifted to every cell, cell-major."""
    xp = backend.get_array_module(anchor_base)
    shift_y = xp.arange(0, height * feat_stride, feat_stride)
    shift_x = xp.arange(0, width * feat_stride, feat_stride)
    shift_x, shift_y = xp.meshgrid(shift_x, shift_y)
    shift = xp.stack((shift_y.ravel(), shift_x.ravel(), shift_y.ravel(), shift_x.ravel()), axis=1)
    # float32 + int64 adds in float64, rounded once to float32 (ChainerCV's arithmetic)
    anchor = anchor_base[None, :, :] + shift[:, None, :]
    return anchor.reshape((-1, 4)).astype(numpy.float32)
