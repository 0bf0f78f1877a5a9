"""FasterRCNNVGG16: Faster R-CNN on VGG-16 (conv5_3 features, RoI pooling, fc6/fc7), and its head VGG16RoIHead."""
import os

import numpy

import kusari
from kusari import initializers
import kusari.functions as F
import kusari.links as L
from kusari.vision.links.model.faster_rcnn.faster_rcnn import FasterRCNN
from kusari.vision.links.model.faster_rcnn.region_proposal_network import RegionProposalNetwork
from kusari.vision.links.model.vgg import VGG16
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB, the mean py-faster-rcnn's Caffe models were trained with
MEAN = numpy.array([122.7717, 115.9465, 102.9801], dtype=numpy.float32)[:, None, None]

# VGG-16's layers that FasterRCNNVGG16 shares with the ImageNet classifier: (owner in self, name)
_VGG16_LAYERS = tuple(("extractor", f"conv{stage}_{i}") for stage, n in ((1, 2), (2, 2), (3, 3), (4, 3), (5, 3))
                      for i in range(1, n + 1)) + (("head", "fc6"), ("head", "fc7"))


class FasterRCNNVGG16(FasterRCNN):
    """Faster R-CNN based on VGG-16 (ChainerCV's FasterRCNNVGG16).

    ``extractor`` is a :class:`~kusari.vision.links.VGG16` cut after ``conv5_3`` (stride 16);
    ``rpn`` a :class:`RegionProposalNetwork` on its 512 channels; ``head`` a :class:`VGG16RoIHead`
    (7x7 RoI pooling, ``fc6``, ``fc7``, then ``cls_loc`` and ``score``). Parameter names are
    ChainerCV's, so its ``.npz`` files load unchanged. See :class:`FasterRCNN` for ``predict``.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes (the background excluded); None: the pretrained model's.
    pretrained_model : str, os.PathLike or None
        ``'voc07'`` (trained on VOC 2007 trainval; zoo key ``'faster-rcnn-vgg16-voc07'``),
        ``'voc0712'`` (VOC 2007+2012 trainval; ``'faster-rcnn-vgg16-voc0712'``), ``'imagenet'``
        (VGG-16's ImageNet weights, zoo key ``'vgg16-imagenet'``, copied into the thirteen
        convolutions and ``fc6``/``fc7``; the rest is initialized at random and ``n_fg_class`` must
        be given), a path to an ``.npz`` file, or None.
    min_size, max_size : int
        Preprocessing sizes (:meth:`FasterRCNN.prepare`).
    ratios, anchor_scales : sequence of numbers
        The anchors (:func:`generate_anchor_base`).
    vgg_initialW, rpn_initialW, loc_initialW, score_initialW : initializer or None
        Of the VGG-16 layers (default :class:`~kusari.vision.links.VGG16`'s normal, std 0.01; zeros
        when pretrained weights overwrite them), the RPN (normal, std 0.01), ``head.cls_loc``
        (normal, std 0.001) and ``head.score`` (normal, std 0.01).
    proposal_creator_params : dict
        Keyword arguments of the RPN's :class:`ProposalCreator`.
    """

    _models = {
        "voc07": {"param": {"n_fg_class": 20}, "zoo": "faster-rcnn-vgg16-voc07", "cv2": True},
        "voc0712": {"param": {"n_fg_class": 20}, "zoo": "faster-rcnn-vgg16-voc0712", "cv2": True},
        # the classifier's weights, copied into the layers VGG-16 shares (not a FasterRCNNVGG16 file)
        "imagenet": {"zoo": "vgg16-imagenet"},
    }
    feat_stride = 16

    def __init__(self, n_fg_class=None, pretrained_model=None, min_size=600, max_size=1000,
                 ratios=[0.5, 1, 2], anchor_scales=[8, 16, 32], vgg_initialW=None, rpn_initialW=None,
                 loc_initialW=None, score_initialW=None, proposal_creator_params={}):
        imagenet = self._is_imagenet(pretrained_model)
        if imagenet and n_fg_class is None:   # before the download
            raise ValueError(f"FasterRCNNVGG16: n_fg_class must be specified with "
                             f"pretrained_model={pretrained_model!r} (VGG-16's ImageNet weights have no detector)")
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, pretrained_model, self._models,
                                               owner="FasterRCNNVGG16")
        n_fg_class = param["n_fg_class"]
        if isinstance(n_fg_class, bool) or not isinstance(n_fg_class, (int, numpy.integer)) or n_fg_class < 1:
            raise ValueError(f"FasterRCNNVGG16: n_fg_class must be a positive int, got {n_fg_class!r}")
        if loc_initialW is None:
            loc_initialW = initializers.Normal(0.001)
        if score_initialW is None:
            score_initialW = initializers.Normal(0.01)
        if rpn_initialW is None:
            rpn_initialW = initializers.Normal(0.01)
        if vgg_initialW is None and pretrained_model:
            vgg_initialW = initializers.Zero()

        extractor = VGG16(initialW=vgg_initialW)
        extractor.pick = "conv5_3"
        extractor.remove_unused()   # fc6 onwards
        rpn = RegionProposalNetwork(512, 512, ratios=ratios, anchor_scales=anchor_scales,
                                    feat_stride=self.feat_stride, initialW=rpn_initialW,
                                    proposal_creator_params=proposal_creator_params)
        head = VGG16RoIHead(n_fg_class + 1, roi_size=7, spatial_scale=1. / self.feat_stride,
                            vgg_initialW=vgg_initialW, loc_initialW=loc_initialW, score_initialW=score_initialW)
        super().__init__(extractor, rpn, head, mean=MEAN.copy(), min_size=min_size, max_size=max_size)

        if imagenet:
            self._copy_imagenet_pretrained_vgg16(path)
        elif path is not None:
            load_pretrained_weights("FasterRCNNVGG16", self, path)

    @classmethod
    def _is_imagenet(cls, pretrained_model) -> bool:
        """Whether ``pretrained_model`` names VGG-16's ImageNet weights (ChainerCV's name or its zoo key)."""
        return isinstance(pretrained_model, (str, os.PathLike)) and \
            os.fspath(pretrained_model) in ("imagenet", cls._models["imagenet"]["zoo"])

    def _copy_imagenet_pretrained_vgg16(self, path: str) -> None:
        vgg16 = VGG16(pretrained_model=path)
        for owner, name in _VGG16_LAYERS:
            getattr(getattr(self, owner), name).copyparams(getattr(vgg16, name))


class VGG16RoIHead(kusari.Chain):
    """Faster R-CNN's head on VGG-16 features: RoI max pooling to ``roi_size`` x ``roi_size``, ``fc6`` and
    ``fc7`` (4096 units, ReLU), then ``cls_loc`` (``n_class * 4`` offsets) and ``score`` (``n_class``).

    ``fc6`` takes 25088 = 512 x 7 x 7 inputs, as in ChainerCV (so ``roi_size`` must be 7 with
    VGG-16's 512 channels).

    Parameters
    ----------
    n_class : int
        Classes, the background included.
    roi_size : int
        Height and width of the pooled features.
    spatial_scale : float
        Feature-map size over image size (1/16 for VGG-16).
    vgg_initialW, loc_initialW, score_initialW : initializer or None
        Of ``fc6``/``fc7``, ``cls_loc`` and ``score`` (None: kusari's default, LeCun normal).
    """

    def __init__(self, n_class, roi_size, spatial_scale, vgg_initialW=None, loc_initialW=None,
                 score_initialW=None):
        super().__init__()
        with self.init_scope():
            self.fc6 = L.Linear(25088, 4096, initialW=vgg_initialW)
            self.fc7 = L.Linear(4096, 4096, initialW=vgg_initialW)
            self.cls_loc = L.Linear(4096, n_class * 4, initialW=loc_initialW)
            self.score = L.Linear(4096, n_class, initialW=score_initialW)
        self.n_class = n_class
        self.roi_size = roi_size
        self.spatial_scale = spatial_scale

    def forward(self, x, rois, roi_indices):
        """Class offsets and scores of RoIs.

        Parameters
        ----------
        x : kusari.Variable or array, shape (N, 512, H, W)
            Feature maps.
        rois : array, shape (R', 4)
            RoIs ``(y_min, x_min, y_max, x_max)`` in image coordinates, of all images.
        roi_indices : integer array, shape (R',)
            The image of each RoI.

        Returns
        -------
        roi_cls_locs : kusari.Variable, shape (R', n_class * 4)
        roi_scores : kusari.Variable, shape (R', n_class)
        """
        pool = roi_pooling_2d_yx(x, rois, roi_indices, self.roi_size, self.roi_size, self.spatial_scale)
        fc6 = F.relu(self.fc6(pool))
        fc7 = F.relu(self.fc7(fc6))
        return self.cls_loc(fc7), self.score(fc7)


def roi_pooling_2d_yx(x, rois, roi_indices, outh: int, outw: int, spatial_scale: float):
    """:func:`kusari.functions.roi_pooling_2d` of RoIs given as ``(y_min, x_min, y_max, x_max)`` with their
    image indices apart (ChainerCV's convention), in ``x``'s dtype; returns (R', C, outh, outw).

    The rows are assembled with kusari.functions (not NumPy), so ``rois`` and ``roi_indices`` may be
    Variables and ``kusari.onnx.export`` traces the head as a function of (x, rois, roi_indices)."""
    dtype = x.dtype
    if tuple(rois.shape[1:]) != (4,) or tuple(roi_indices.shape) != (rois.shape[0],):
        raise ValueError(f"roi_pooling_2d_yx: rois must have shape (R, 4) and roi_indices (R,), got "
                         f"rois.shape={tuple(rois.shape)}, roi_indices.shape={tuple(roi_indices.shape)}")
    indices = F.cast(F.expand_dims(roi_indices, 1), dtype)
    boxes = F.cast(F.get_item(rois, (slice(None), [1, 0, 3, 2])), dtype)
    return F.roi_pooling_2d(x, F.concat((indices, boxes), axis=1), outh, outw, spatial_scale)
