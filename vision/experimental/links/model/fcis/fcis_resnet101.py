"""FCISResNet101: FCIS on ResNet-101 (dilated conv5), and its parts ResNet101Extractor and FCISResNet101Head."""
import os

import numpy

import kusari
from kusari import initializers, serializers
import kusari.functions as F
import kusari.links as L
from kusari.vision.experimental.links.model.fcis.fcis import FCIS
from kusari.vision.functions import ps_roi_average_pooling_2d
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model.faster_rcnn import RegionProposalNetwork, loc2bbox
from kusari.vision.links.model.resnet import ResBlock
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB, the channel means of Kaiming He's ImageNet mean image (rounded as in ChainerCV's FCIS)
MEAN = numpy.array([123.15, 115.90, 103.06], dtype=numpy.float32)[:, None, None]


class FCISResNet101(FCIS):
    """FCIS based on ResNet-101 (ChainerCV's FCISResNet101).

    ``extractor`` is a :class:`ResNet101Extractor` (``res4`` feeds the RPN, the dilated ``res5`` the
    head, both at stride 16); ``rpn`` a :class:`~kusari.vision.links.model.faster_rcnn.RegionProposalNetwork`
    on 1024 channels; ``head`` an :class:`FCISResNet101Head`. Parameter names are ChainerCV's, so its
    ``.npz`` files load unchanged. See :class:`FCIS` for ``predict``.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes (the background excluded); None: the pretrained model's.
    pretrained_model : str, os.PathLike or None
        ``'sbd'`` (trained by ChainerCV on SBD train; zoo key ``'fcis-resnet101-sbd'``),
        ``'sbd_converted'`` (the authors' SBD model, converted; ``'fcis-resnet101-sbd-converted'``),
        ``'coco'`` (trained by ChainerCV on COCO; ``'fcis-resnet101-coco'``), ``'coco_converted'``
        (the authors' COCO model, converted; ``'fcis-resnet101-coco-converted'``), ``'imagenet'``
        (ResNet-101's ImageNet weights, Kaiming He's, zoo key ``'resnet101-he-imagenet'``, loaded
        into the extractor; ``n_fg_class`` must be given), a path to an ``.npz`` file, or None.
    min_size, max_size : int
        Preprocessing sizes (:meth:`FCIS.prepare`).
    roi_size : int
        Height and width of the position-sensitive pooled maps.
    group_size : int
        Height and width of the grid of position-sensitive channel groups.
    ratios, anchor_scales : sequence of numbers
        The RPN's anchors.
    loc_normalize_mean, loc_normalize_std : tuple of four floats
        Normalization of the head's offsets.
    iter2 : bool
        The head pools a second time, on the RoIs its first offsets refine, and returns both sets.
    resnet_initialW, rpn_initialW, head_initialW : initializer or None
        Of the ResNet-101 layers (default He normal; zeros when pretrained weights overwrite them),
        the RPN (normal, std 0.01) and the head (normal, std 0.01).
    proposal_creator_params : dict or None
        Keyword arguments of the RPN's ProposalCreator; None: :attr:`proposal_creator_params`
        (ChainerCV's: NMS 0.7, 6000 proposals before NMS and 300 after, in training and test).
    """

    _models = {
        "sbd": {"param": {"n_fg_class": 20}, "zoo": "fcis-resnet101-sbd", "cv2": True},
        "sbd_converted": {"param": {"n_fg_class": 20}, "zoo": "fcis-resnet101-sbd-converted", "cv2": True},
        "coco": {"param": {"n_fg_class": 80}, "zoo": "fcis-resnet101-coco", "cv2": True},
        "coco_converted": {"param": {"n_fg_class": 80}, "zoo": "fcis-resnet101-coco-converted", "cv2": True},
        # the classifier's weights, loaded into the extractor (not an FCISResNet101 file)
        "imagenet": {"zoo": "resnet101-he-imagenet"},
    }
    feat_stride = 16
    proposal_creator_params = {
        "nms_thresh": 0.7,
        "n_train_pre_nms": 6000,
        "n_train_post_nms": 300,
        "n_test_pre_nms": 6000,
        "n_test_post_nms": 300,
        "force_cpu_nms": False,
        "min_size": 16,
    }

    def __init__(self, n_fg_class=None, pretrained_model=None, min_size=600, max_size=1000, roi_size=21,
                 group_size=7, ratios=[0.5, 1, 2], anchor_scales=[8, 16, 32],
                 loc_normalize_mean=(0.0, 0.0, 0.0, 0.0), loc_normalize_std=(0.2, 0.2, 0.5, 0.5), iter2=True,
                 resnet_initialW=None, rpn_initialW=None, head_initialW=None, proposal_creator_params=None):
        owner = "FCISResNet101"
        imagenet = self._is_imagenet(pretrained_model)
        if imagenet and n_fg_class is None:   # before the download
            raise ValueError(f"{owner}: n_fg_class must be specified with pretrained_model={pretrained_model!r} "
                             f"(ResNet-101's ImageNet weights have no FCIS head)")
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, pretrained_model, self._models,
                                               owner=owner)
        n_fg_class = param["n_fg_class"]
        if isinstance(n_fg_class, bool) or not isinstance(n_fg_class, (int, numpy.integer)) or n_fg_class < 1:
            raise ValueError(f"{owner}: n_fg_class must be a positive int, got {n_fg_class!r}")
        if rpn_initialW is None:
            rpn_initialW = initializers.Normal(0.01)
        if resnet_initialW is None and pretrained_model:
            resnet_initialW = initializers.Zero()
        if proposal_creator_params is None:
            proposal_creator_params = self.proposal_creator_params

        extractor = ResNet101Extractor(initialW=resnet_initialW)
        rpn = RegionProposalNetwork(1024, 512, ratios=ratios, anchor_scales=anchor_scales,
                                    feat_stride=self.feat_stride, initialW=rpn_initialW,
                                    proposal_creator_params=proposal_creator_params)
        head = FCISResNet101Head(n_fg_class + 1, roi_size=roi_size, group_size=group_size,
                                 spatial_scale=1. / self.feat_stride, loc_normalize_mean=loc_normalize_mean,
                                 loc_normalize_std=loc_normalize_std, iter2=iter2, initialW=head_initialW)
        super().__init__(extractor, rpn, head, MEAN.copy(), min_size, max_size, loc_normalize_mean,
                         loc_normalize_std)
        self.proposal_creator_params = proposal_creator_params

        if imagenet:
            self._load_imagenet_resnet(path)
        elif path is not None:
            load_pretrained_weights(owner, self, path)

    @classmethod
    def _is_imagenet(cls, pretrained_model) -> bool:
        """Whether ``pretrained_model`` names ResNet-101's ImageNet weights (ChainerCV's name or its zoo key)."""
        return isinstance(pretrained_model, (str, os.PathLike)) and \
            os.fspath(pretrained_model) in ("imagenet", cls._models["imagenet"]["zoo"])

    def _load_imagenet_resnet(self, path: str) -> None:
        """ResNet-101's convolutions and batch normalizations (a ResNet101(arch='he') file: the same keys as the
        extractor's, plus ``fc6``) into the extractor, as ChainerCV's ``_copy_imagenet_pretrained_resnet``."""
        saved = {}
        serializers.DictionarySerializer(saved).save(self.extractor)
        # the batch normalizations' counters N are not needed (ChainerCV does not copy them)
        load_pretrained_weights("FCISResNet101", self.extractor, path,
                                required=[key for key in saved if not key.endswith("/N")])


class ResNet101Extractor(kusari.Chain):
    """ResNet-101 up to ``res5`` for FCIS: ``conv1``, ``pool1``, ``res2``..``res5`` (Kaiming He's
    bottlenecks, stride in the first 1x1 convolution; ``res5`` dilated by 2 with stride 1).

    Batch normalization always runs in test mode, and ``conv1`` and ``res2`` are frozen (the graph
    is cut after ``res2``), as in ChainerCV.

    Parameters
    ----------
    initialW : initializer or None
        Of every convolution (default He normal).
    """

    def __init__(self, initialW=None):
        super().__init__()
        if initialW is None:
            initialW = initializers.HeNormal()
        kwargs = {"initialW": initialW, "bn_kwargs": {"eps": 1e-5}, "stride_first": True}
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(3, 64, 7, 2, 3, nobias=True, initialW=initialW)
            self.res2 = ResBlock(3, 64, 64, 256, 1, **kwargs)
            self.res3 = ResBlock(4, 256, 128, 512, 2, **kwargs)
            self.res4 = ResBlock(23, 512, 256, 1024, 2, **kwargs)
            self.res5 = ResBlock(3, 1024, 512, 2048, 1, 2, **kwargs)

    def pool1(self, x):
        """3x3 max pooling, stride 2 (Chainer's ``cover_all``)."""
        return F.max_pooling_2d(x, ksize=3, stride=2)

    def forward(self, x):
        """Features of images ``x`` (N, 3, H, W): ``res4`` (N, 1024, H / 16, W / 16) and ``res5``
        (N, 2048, H / 16, W / 16), sizes rounded up at each stride."""
        with kusari.using_config("train", False):
            h = self.pool1(self.conv1(x))
            h = self.res2(h)
            h.unchain_backward()
            h = self.res3(h)
            res4 = self.res4(h)
            res5 = self.res5(res4)
        return res4, res5


class FCISResNet101Head(kusari.Chain):
    """FCIS's head on ResNet-101 features: ``conv1`` (1x1, 2048 -> 1024, ReLU), then ``cls_seg``
    (position-sensitive inside/outside score maps, ``group_size**2 * n_class * 2`` channels) and
    ``ag_loc`` (position-sensitive class-agnostic offsets, ``group_size**2 * 2 * 4`` channels),
    pooled per RoI with :func:`~kusari.vision.functions.ps_roi_average_pooling_2d`.

    A RoI's class scores are the averages over its ``roi_size`` x ``roi_size`` bins of the larger of
    each class's inside and outside scores; its offsets the averages of the offset maps; its mask
    scores the inside/outside scores of its best class (or of ``gt_roi_labels`` in training).

    Parameters
    ----------
    n_class : int
        Classes, the background included.
    roi_size : int
        Height and width of the pooled maps.
    group_size : int
        Height and width of the grid of position-sensitive channel groups.
    spatial_scale : float
        Feature-map size over image size (1/16).
    loc_normalize_mean, loc_normalize_std : tuple of four floats
        Normalization of the offsets (to decode the second pass's RoIs).
    iter2 : bool
        Pool a second time on the RoIs refined by the first pass's foreground offsets, and return
        both passes (the RoIs doubled).
    initialW : initializer or None
        Of the three convolutions (default normal, std 0.01).
    """

    def __init__(self, n_class, roi_size, group_size, spatial_scale, loc_normalize_mean, loc_normalize_std,
                 iter2, initialW=None):
        super().__init__()
        if initialW is None:
            initialW = initializers.Normal(0.01)
        self.n_class = n_class
        self.spatial_scale = spatial_scale
        self.group_size = group_size
        self.roi_size = roi_size
        self.loc_normalize_mean = loc_normalize_mean
        self.loc_normalize_std = loc_normalize_std
        self.iter2 = iter2
        with self.init_scope():
            self.conv1 = L.Convolution2D(2048, 1024, 1, 1, 0, initialW=initialW)
            self.cls_seg = L.Convolution2D(1024, group_size * group_size * n_class * 2, 1, 1, 0,
                                           initialW=initialW)
            self.ag_loc = L.Convolution2D(1024, group_size * group_size * 2 * 4, 1, 1, 0, initialW=initialW)

    def forward(self, x, rois, roi_indices, img_size, gt_roi_labels=None):
        """Mask scores, offsets and class scores of RoIs.

        Parameters
        ----------
        x : kusari.Variable or array, shape (N, 2048, H, W)
            Feature maps.
        rois : array, shape (R', 4)
            RoIs ``(y_min, x_min, y_max, x_max)`` in image coordinates, of all images.
        roi_indices : integer array, shape (R',)
            The image of each RoI.
        img_size : tuple of two ints
            ``(height, width)`` of the images (the refined RoIs are clipped to it).
        gt_roi_labels : integer array, shape (R',), or None
            The class whose mask scores to return for each RoI (training); None: its highest-scored.

        Returns
        -------
        roi_ag_seg_scores : kusari.Variable, shape (R'', 2, roi_size, roi_size)
        roi_ag_locs : kusari.Variable, shape (R'', 2, 4)
        roi_cls_scores : kusari.Variable, shape (R'', n_class)
        rois : array, shape (R'', 4)
        roi_indices : array, shape (R'',)
            R'' = 2 R' with ``iter2`` (the first pass's RoIs, then the refined ones), else R'.
        """
        h = F.relu(self.conv1(x))
        h_cls_seg = self.cls_seg(h)
        h_ag_loc = self.ag_loc(h)
        roi_ag_seg_scores, roi_ag_locs, roi_cls_scores = self._pool(h_cls_seg, h_ag_loc, rois, roi_indices,
                                                                    gt_roi_labels)
        if self.iter2:
            xp = self.xp
            # the second pass's RoIs: the first pass's foreground offsets, decoded and clipped
            mean = xp.array(self.loc_normalize_mean)
            std = xp.array(self.loc_normalize_std)
            roi_locs = (roi_ag_locs.array[:, 1, :] * std + mean).astype(numpy.float32)
            rois2 = loc2bbox(rois, roi_locs)
            rois2[:, 0::2] = xp.clip(rois2[:, 0::2], 0, img_size[0])
            rois2[:, 1::2] = xp.clip(rois2[:, 1::2], 0, img_size[1])
            roi_ag_seg_scores2, roi_ag_locs2, roi_cls_scores2 = self._pool(h_cls_seg, h_ag_loc, rois2, roi_indices,
                                                                           gt_roi_labels)
            rois = xp.concatenate((rois, rois2))
            roi_indices = xp.concatenate((roi_indices, roi_indices))
            roi_ag_seg_scores = F.concat((roi_ag_seg_scores, roi_ag_seg_scores2), axis=0)
            roi_ag_locs = F.concat((roi_ag_locs, roi_ag_locs2), axis=0)
            roi_cls_scores = F.concat((roi_cls_scores, roi_cls_scores2), axis=0)
        return roi_ag_seg_scores, roi_ag_locs, roi_cls_scores, rois, roi_indices

    def _pool(self, h_cls_seg, h_ag_loc, rois, roi_indices, gt_roi_labels):
        """One pass: (mask scores (R, 2, S, S), offsets (R, 2, 4), class scores (R, n_class))."""
        size = self.roi_size
        # (R, n_class, 2, S, S)
        roi_cls_ag_seg_scores = ps_roi_average_pooling_2d(h_cls_seg, rois, roi_indices, (self.n_class * 2, size, size),
                                                          self.spatial_scale, self.group_size)
        roi_cls_ag_seg_scores = roi_cls_ag_seg_scores.reshape((-1, self.n_class, 2, size, size))
        # (R, 8, S, S)
        roi_ag_loc_scores = ps_roi_average_pooling_2d(h_ag_loc, rois, roi_indices, (2 * 4, size, size),
                                                      self.spatial_scale, self.group_size)
        roi_cls_scores = F.average(F.max(roi_cls_ag_seg_scores, axis=2), axis=(2, 3))
        roi_ag_locs = F.average(roi_ag_loc_scores, axis=(2, 3)).reshape((-1, 2, 4))
        if gt_roi_labels is None:
            cls_indices = roi_cls_scores.array.argmax(axis=1)
        else:
            cls_indices = gt_roi_labels
        roi_ag_seg_scores = roi_cls_ag_seg_scores[self.xp.arange(len(cls_indices)), cls_indices]
        return roi_ag_seg_scores, roi_ag_locs, roi_cls_scores
