"""Faster R-CNN and Mask R-CNN with a ResNet-50/101 feature pyramid (ChainerCV's
chainercv.links.model.fpn.FasterRCNNFPNResNet50/101 and MaskRCNNFPNResNet50/101)."""
import functools

import numpy

import kusari.functions as F
from kusari import initializers, serializers
from kusari.vision.links.model.fpn.bbox_head import BboxHead
from kusari.vision.links.model.fpn.faster_rcnn import FasterRCNN
from kusari.vision.links.model.fpn.fpn import FPN
from kusari.vision.links.model.fpn.mask_head import MaskHead
from kusari.vision.links.model.fpn.rpn import RPN
from kusari.vision.links.model.resnet import ResNet50, ResNet101
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

SCALES = (1 / 4, 1 / 8, 1 / 16, 1 / 32, 1 / 64)


def _coco(zoo_key: str) -> dict:
    return {"coco": {"param": {"n_fg_class": 80}, "zoo": zoo_key, "cv2": True}}


class FasterRCNNFPNResNet(FasterRCNN):
    """Faster R-CNN with a ResNet feature pyramid; subclasses set ``_base`` (the ResNet class) and
    ``_models`` (the pretrained models).

    The extractor is an :class:`~kusari.vision.links.model.fpn.FPN` over a ResNet (``arch='he'``,
    its first max pooling padded: 3x3, stride 2, pad 1) whose ``res2`` to ``res5`` feed five levels
    (scales 1/4 to 1/64).

    Parameters
    ----------
    n_fg_class : int or None
        Classes without the background; None: the pretrained model's.
    pretrained_model : str, os.PathLike or None
        ``'coco'`` (ChainerCV's weights trained on COCO 2017 train, 80 classes), its zoo key, a
        path to an ``.npz``, ``'imagenet'`` (only the ResNet's weights, ChainerCV's
        ``ResNet(arch='he', pretrained_model='imagenet')``; the rest stays random and ``n_fg_class``
        must be given), or None (random weights).
    return_values : list of str
        What ``predict`` returns (see :class:`FasterRCNN`).
    min_size, max_size : int
        The scaling of ``prepare``.
    """

    _base = None
    _models: dict = {}

    def __init__(self, n_fg_class=None, pretrained_model=None, return_values=['bboxes', 'labels', 'scores'],
                 min_size=800, max_size=1333):
        owner = type(self).__name__
        imagenet = isinstance(pretrained_model, str) and pretrained_model == "imagenet"
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, None if imagenet else pretrained_model,
                                               self._models, owner=owner)
        # weights that will be overwritten are not sampled (ResNet's sampling takes seconds)
        base = self._base(n_class=1, arch="he", initialW=initializers.Zero() if path or imagenet else None)
        base.pick = ("res2", "res3", "res4", "res5")
        base.pool1 = functools.partial(F.max_pooling_2d, ksize=3, stride=2, pad=1, cover_all=False)
        base.remove_unused()
        extractor = FPN(base, len(base.pick), SCALES)
        heads = {"bbox_head": BboxHead(param["n_fg_class"] + 1, extractor.scales),
                 "mask_head": MaskHead(param["n_fg_class"] + 1, extractor.scales)}
        super().__init__(extractor=extractor, rpn=RPN(extractor.scales), **heads, return_values=return_values,
                         min_size=min_size, max_size=max_size)
        if imagenet:
            _copy_backbone(self.extractor.base, self._base(pretrained_model="imagenet", arch="he"))
        elif path:
            self._load(owner, path, heads)

    def _load(self, owner: str, path: str, heads: dict) -> None:
        """Load a weight file, which may also hold heads this model does not run (ChainerCV ignores
        them: a Mask R-CNN file serves a model asked for boxes only); those must fit too."""
        with numpy.load(path) as npz:
            stored = {key.split("/", 1)[0] for key in npz.files}
        unused = [name for name in heads if name in stored and not hasattr(self, name)]
        with self.init_scope():
            for name in unused:
                setattr(self, name, heads[name])
        try:
            load_pretrained_weights(owner, self, path)
        finally:
            for name in unused:
                delattr(self, name)


def _copy_backbone(dst, src) -> None:
    """Copy every parameter and persistent array that ``dst`` (a ResNet without its head) has from
    ``src`` (a full ResNet of the same depth and architecture)."""
    arrays = {}
    serializers.DictionarySerializer(arrays).save(src)
    serializers.NpzDeserializer(arrays, strict=True).load(dst)


class MaskRCNNFPNResNet(FasterRCNNFPNResNet):
    """Mask R-CNN with a ResNet feature pyramid: :class:`FasterRCNNFPNResNet` returning masks, labels
    and scores by default."""

    def __init__(self, n_fg_class=None, pretrained_model=None, return_values=['masks', 'labels', 'scores'],
                 min_size=800, max_size=1333):
        super().__init__(n_fg_class, pretrained_model, return_values, min_size, max_size)


class FasterRCNNFPNResNet50(FasterRCNNFPNResNet):
    """Faster R-CNN with a ResNet-50 feature pyramid; see :class:`FasterRCNNFPNResNet`."""

    _base = ResNet50
    _models = _coco("faster-rcnn-fpn-resnet50-coco")


class FasterRCNNFPNResNet101(FasterRCNNFPNResNet):
    """Faster R-CNN with a ResNet-101 feature pyramid; see :class:`FasterRCNNFPNResNet`."""

    _base = ResNet101
    _models = _coco("faster-rcnn-fpn-resnet101-coco")


class MaskRCNNFPNResNet50(MaskRCNNFPNResNet):
    """Mask R-CNN with a ResNet-50 feature pyramid; see :class:`FasterRCNNFPNResNet`."""

    _base = ResNet50
    _models = _coco("mask-rcnn-fpn-resnet50-coco")


class MaskRCNNFPNResNet101(MaskRCNNFPNResNet):
    """Mask R-CNN with a ResNet-101 feature pyramid; see :class:`FasterRCNNFPNResNet`."""

    _base = ResNet101
    _models = _coco("mask-rcnn-fpn-resnet101-coco")
