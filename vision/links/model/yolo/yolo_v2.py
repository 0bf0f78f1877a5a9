"""YOLOv2 (J. Redmon, A. Farhadi, YOLO9000: Better, Faster, Stronger, CVPR 2017) and its Darknet-19 extractor."""
import numpy

import kusari
import kusari.functions as F
from kusari.links import Convolution2D
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model._single_shot import check_n_fg_class
from kusari.vision.links.model.yolo.yolo_base import YOLOBase
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model


def _leaky_relu(x):
    return F.leaky_relu(x, slope=0.1)


def _maxpool(x, ksize, stride=None):
    """Darknet's max pooling: padded at the bottom and right only (by ``ksize - stride``), so that a
    stride-1 pooling keeps the size."""
    if stride is None:
        stride = ksize
    h = F.max_pooling_2d(x, ksize, stride=stride, pad=ksize - stride)
    if ksize > stride:
        h = h[:, :, ksize - stride:, ksize - stride:]
    return h


def _reorg(x):
    """Space to depth: (N, C, H, W) -> (N, 4C, H/2, W/2), Darknet's channel order."""
    n, c, h, w = x.shape
    x = F.reshape(x, (n, c // 4, h, 2, w, 2))
    x = F.transpose(x, (0, 3, 5, 1, 2, 4))
    return F.reshape(x, (n, c * 4, h // 2, w // 2))


def _sigmoid(xp, x):
    return 1 / (1 + xp.exp(-x))


def _softmax(xp, x):
    e = xp.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def default_boxes(grids, anchors) -> numpy.ndarray:
    """(K, 4) float32 ``(v, u, h, w)``: for each grid ``g`` (with its anchors), each cell ``(v, u)``
    (row-major), each anchor ``(h, w)``."""
    boxes = []
    for grid, grid_anchors in zip(grids, anchors):
        v, u = numpy.meshgrid(numpy.arange(grid), numpy.arange(grid), indexing="ij")
        cells = numpy.repeat(numpy.stack((v.ravel(), u.ravel()), axis=1), len(grid_anchors), axis=0)
        hw = numpy.tile(numpy.asarray(grid_anchors, numpy.float64), (grid * grid, 1))
        boxes.append(numpy.concatenate((cells, hw), axis=1))
    return numpy.concatenate(boxes).astype(numpy.float32)


class YOLOv2Base(YOLOBase):
    """YOLOv2 and YOLOv2Tiny: one extractor, one 1x1 convolution ``subnet``, anchors on one grid.

    A subclass sets ``_extractor`` (a class with ``insize`` and ``grid``), ``_models`` (the
    pretrained models) and ``_anchors`` ((h, w) pairs in grid cells).

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        A name of ``_models`` (``'voc0712'``), its zoo key, a path to an ``.npz`` of this model,
        or None.

    Child links: ``extractor`` and ``subnet`` (``len(_anchors) * (5 + n_fg_class)`` channels).
    """

    _extractor = None
    _models = {}
    _anchors = ()

    def __init__(self, n_fg_class=None, pretrained_model=None):
        super().__init__()
        owner = type(self).__name__
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, pretrained_model, self._models,
                                               owner=owner)
        self.n_fg_class = check_n_fg_class(owner, param["n_fg_class"])
        self.use_preset("visualize")
        with self.init_scope():
            self.extractor = self._extractor()
            self.subnet = Convolution2D(len(self._anchors) * (4 + 1 + self.n_fg_class), 1)
        self._default_bbox = default_boxes((self.extractor.grid,), (self._anchors,))
        if path:
            load_pretrained_weights(owner, self, path)

    def forward(self, x):
        """Box offsets, objectness and class scores of every anchor box.

        Parameters
        ----------
        x : Variable or array, shape (B, 3, insize, insize)
            Images in [0, 1], as :meth:`predict` prepares them.

        Returns
        -------
        (locs, objs, confs)
            Variables of shapes ``(B, K, 4)``, ``(B, K)`` and ``(B, K, n_fg_class)``, ``K =
            grid * grid * len(_anchors)``.
        """
        h = self.subnet(self.extractor(x))
        h = F.transpose(h, (0, 2, 3, 1))
        h = F.reshape(h, (h.shape[0], -1, 4 + 1 + self.n_fg_class))
        return h[:, :, :4], h[:, :, 4], h[:, :, 5:]

    def _decode(self, loc, obj, conf):
        xp = self.xp
        center = self._default_bbox[:, :2] + _sigmoid(xp, loc[:, :2])
        size = self._default_bbox[:, 2:] * xp.exp(loc[:, 2:])
        corner = center - size / 2
        bbox = xp.concatenate((corner, corner + size), axis=1) * (self.insize / self.extractor.grid)
        score = _sigmoid(xp, obj)[:, None] * _softmax(xp, conf)
        return self._suppress(bbox, score)


class Darknet19Extractor(kusari.ChainList):
    """The Darknet-19 feature extractor of :class:`YOLOv2` on 416x416 images (13x13 grid).

    Eighteen Darknet-19 convolutions (3x3 and 1x1, channels 32 to 1024, five stride-2 poolings),
    two more 3x3 ones of 1024 channels, a 1x1 one of 64 channels on the 26x26 features
    (``reorg``-ed and concatenated) and a last 3x3 one of 1024 channels; every one a
    :class:`Conv2DBNActiv` with leaky ReLU (slope 0.1). Children ``0`` .. ``21``.
    """

    insize = 416
    grid = 13

    def __init__(self):
        super().__init__()
        for k, n_conv in enumerate((1, 1, 3, 3, 5, 5)):
            for i in range(n_conv):
                if i % 2 == 0:
                    self.append(Conv2DBNActiv(32 << k, 3, pad=1, activ=_leaky_relu))
                else:
                    self.append(Conv2DBNActiv(32 << (k - 1), 1, activ=_leaky_relu))
        self.append(Conv2DBNActiv(1024, 3, pad=1, activ=_leaky_relu))
        self.append(Conv2DBNActiv(1024, 3, pad=1, activ=_leaky_relu))
        self.append(Conv2DBNActiv(64, 1, activ=_leaky_relu))
        self.append(Conv2DBNActiv(1024, 3, pad=1, activ=_leaky_relu))

    def forward(self, x):
        """x: (B, 3, H, W) -> (B, 1024, H/32, W/32) (H, W multiples of 32)."""
        h = x
        for i, link in enumerate(self):
            h = link(h)
            if i == 12:
                passthrough = h                      # the 26x26 features
            elif i == 19:
                h, passthrough = passthrough, h      # child 20 works on the 26x26 features
            elif i == 20:
                h = F.concat((_reorg(h), passthrough))
            if i in (0, 1, 4, 7, 12):
                h = _maxpool(h, 2)
        return h


class YOLOv2(YOLOv2Base):
    """YOLOv2 on 416x416 images (:class:`Darknet19Extractor`, 845 anchor boxes).

    J. Redmon, A. Farhadi, YOLO9000: Better, Faster, Stronger, CVPR 2017.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        ``'voc0712'`` (PASCAL VOC 2007+2012 trainval, converted by ChainerCV from the authors'
        Darknet model; zoo key ``'yolo-v2-voc0712'``; downloaded on first use), a path to an
        ``.npz`` of this model, or None.
    """

    _extractor = Darknet19Extractor
    _models = {"voc0712": {"param": {"n_fg_class": 20}, "zoo": "yolo-v2-voc0712", "cv2": True}}
    _anchors = ((1.73145, 1.3221), (4.00944, 3.19275), (8.09892, 5.05587), (4.84053, 9.47112),
                (10.0071, 11.2364))
