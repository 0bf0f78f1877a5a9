"""YOLOv3 (J. Redmon, A. Farhadi, YOLOv3: An Incremental Improvement, arXiv 2018) and its Darknet-53
extractor."""
import numpy

import kusari
import kusari.functions as F
from kusari.links import Convolution2D
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model._single_shot import check_n_fg_class
from kusari.vision.links.model.yolo.yolo_base import YOLOBase
from kusari.vision.links.model.yolo.yolo_v2 import _leaky_relu, _sigmoid, default_boxes
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model


def _upsample(x):
    return F.unpooling_2d(x, 2, cover_all=False)


class ResidualBlock(kusari.ChainList):
    """Its links applied in turn, plus the input (a ChainList with a residual connection)."""

    def __init__(self, *links):
        super().__init__(*links)

    def forward(self, x):
        h = x
        for link in self:
            h = link(h)
        return h + x


class Darknet53Extractor(kusari.ChainList):
    """The Darknet-53 feature extractor of :class:`YOLOv3` on 416x416 images (grids 13, 26, 52).

    Darknet-53 (a 3x3 convolution, then five stages of a stride-2 convolution and 1, 2, 8, 8, 4
    :class:`ResidualBlock`\\ s), then three detection branches of five (then six) convolutions at
    strides 32, 16 and 8, each later branch taking the previous one's features upsampled and
    concatenated with Darknet-53's at its stride. Every convolution is a :class:`Conv2DBNActiv`
    with leaky ReLU (slope 0.1). Children ``0`` .. ``45``.

    ``forward(x)`` returns the three branches' features: (B, 512, H/32, W/32),
    (B, 256, H/16, W/16), (B, 128, H/8, W/8).
    """

    insize = 416
    grids = (13, 26, 52)

    def __init__(self):
        super().__init__()
        self.append(Conv2DBNActiv(32, 3, pad=1, activ=_leaky_relu))
        for k, n_block in enumerate((1, 2, 8, 8, 4)):
            self.append(Conv2DBNActiv(32 << (k + 1), 3, stride=2, pad=1, activ=_leaky_relu))
            for _ in range(n_block):
                self.append(ResidualBlock(Conv2DBNActiv(32 << k, 1, activ=_leaky_relu),
                                          Conv2DBNActiv(32 << (k + 1), 3, pad=1, activ=_leaky_relu)))
        for i, n in enumerate((512, 256, 128)):
            if i > 0:
                self.append(Conv2DBNActiv(n, 1, activ=_leaky_relu))
            for _ in range(2):
                self.append(Conv2DBNActiv(n, 1, activ=_leaky_relu))
                self.append(Conv2DBNActiv(n * 2, 3, pad=1, activ=_leaky_relu))
            self.append(Conv2DBNActiv(n, 1, activ=_leaky_relu))

    def forward(self, x):
        """x: (B, 3, H, W) -> [(B, 512, H/32, W/32), (B, 256, H/16, W/16), (B, 128, H/8, W/8)]."""
        ys, skips = [], []
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i in (33, 39, 45):      # the last convolution of a branch
                ys.append(h)
            elif i in (14, 23):        # Darknet-53's stride-8 and stride-16 features
                skips.append(h)
            elif i in (34, 40):        # the 1x1 convolution starting the next branch
                h = F.concat((_upsample(h), skips.pop()))
        return ys


class YOLOv3(YOLOBase):
    """YOLOv3 on 416x416 images (:class:`Darknet53Extractor`, 10647 anchor boxes on three grids).

    J. Redmon, A. Farhadi, YOLOv3: An Incremental Improvement, arXiv 2018.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        ``'voc0712'`` (PASCAL VOC 2007+2012 trainval, converted by ChainerCV from the authors'
        Darknet model; zoo key ``'yolo-v3-voc0712'``; downloaded on first use), a path to an
        ``.npz`` of this model, or None.

    Child links: ``extractor`` and ``subnet``, a ChainList of three Sequentials (a 3x3
    :class:`Conv2DBNActiv` and a 1x1 :class:`kusari.links.Convolution2D` of ``3 * (5 + n_fg_class)``
    channels), one per grid. Class scores are independent sigmoids (not a softmax).
    """

    _models = {"voc0712": {"param": {"n_fg_class": 20}, "zoo": "yolo-v3-voc0712", "cv2": True}}
    # (h, w) in input pixels, per grid
    _anchors = (((90, 116), (198, 156), (326, 373)), ((61, 30), (45, 62), (119, 59)),
                ((13, 10), (30, 16), (23, 33)))
    _anchor_arrays = ("_default_bbox", "_step")

    def __init__(self, n_fg_class=None, pretrained_model=None):
        super().__init__()
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, pretrained_model, self._models,
                                               owner="YOLOv3")
        self.n_fg_class = check_n_fg_class("YOLOv3", param["n_fg_class"])
        self.use_preset("visualize")
        with self.init_scope():
            self.extractor = Darknet53Extractor()
            self.subnet = kusari.ChainList()
        for i, n in enumerate((512, 256, 128)):
            self.subnet.append(kusari.Sequential(
                Conv2DBNActiv(n * 2, 3, pad=1, activ=_leaky_relu),
                Convolution2D(len(self._anchors[i]) * (4 + 1 + self.n_fg_class), 1)))
        grids = self.extractor.grids
        self._default_bbox = default_boxes(grids, self._anchors)
        self._step = numpy.concatenate([numpy.full(grid * grid * len(anchors), self.insize / grid, numpy.float32)
                                        for grid, anchors in zip(grids, self._anchors)])
        if path:
            load_pretrained_weights("YOLOv3", self, path)

    def forward(self, x):
        """Box offsets, objectness and class scores of every anchor box.

        Parameters
        ----------
        x : Variable or array, shape (B, 3, insize, insize)
            Images in [0, 1], as :meth:`predict` prepares them.

        Returns
        -------
        (locs, objs, confs)
            Variables of shapes ``(B, K, 4)``, ``(B, K)`` and ``(B, K, n_fg_class)``: the 13x13
            grid's anchors first, then the 26x26 and the 52x52 grids'.
        """
        ys = []
        for h, subnet in zip(self.extractor(x), self.subnet):
            h = F.transpose(subnet(h), (0, 2, 3, 1))
            ys.append(F.reshape(h, (h.shape[0], -1, 4 + 1 + self.n_fg_class)))
        y = F.concat(ys)
        return y[:, :, :4], y[:, :, 4], y[:, :, 5:]

    def _decode(self, loc, obj, conf):
        xp = self.xp
        center = (self._default_bbox[:, :2] + _sigmoid(xp, loc[:, :2])) * self._step[:, None]
        size = self._default_bbox[:, 2:] * xp.exp(loc[:, 2:])
        corner = center - size / 2
        bbox = xp.concatenate((corner, corner + size), axis=1)
        score = _sigmoid(xp, obj)[:, None] * _sigmoid(xp, conf)
        return self._suppress(bbox, score)
