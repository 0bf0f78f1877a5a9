"""SSD300 and SSD512: SSD on the extended VGG-16 of the paper (and their feature extractors)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import initializers
from kusari.vision.links.model._single_shot import check_n_fg_class
from kusari.vision.links.model.ssd.multibox import Multibox
from kusari.vision.links.model.ssd.normalize import Normalize
from kusari.vision.links.model.ssd.ssd import SSD
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB, (3, 1, 1); the integers ChainerCV uses (float32 here, so that the images stay float32)
IMAGENET_MEAN = numpy.array((123, 117, 104), dtype=numpy.float32).reshape((-1, 1, 1))

# the keys the 'imagenet' weights must hold: VGG-16's convolutions (ChainerCV converted them from the SSD
# authors' ImageNet model, whose fully connected layers are the dilated conv6 and conv7)
_VGG16_CONVS = ("conv1_1", "conv1_2", "conv2_1", "conv2_2", "conv3_1", "conv3_2", "conv3_3", "conv4_1",
                "conv4_2", "conv4_3", "conv5_1", "conv5_2", "conv5_3", "conv6", "conv7")
IMAGENET_KEYS = tuple(f"extractor/{conv}/{p}" for conv in _VGG16_CONVS for p in ("W", "b"))


class VGG16(kusari.Chain):
    """The VGG-16 of SSD: ``conv5_*`` and the fully connected layers turned into (dilated) convolutions.

    Differences from the classifier: ``norm4`` (:class:`Normalize`, scale 20) after ``conv4_3``;
    ``conv5_1``..``conv5_3`` are :class:`kusari.links.DilatedConvolution2D` (dilation 1);
    ``pool5`` is 3x3, stride 1, pad 1; ``conv6`` (1024 channels, 3x3, dilation 6) and ``conv7``
    (1024, 1x1) replace ``fc6`` and ``fc7``. Every convolution takes its input channels from the
    first call and has Chainer's default initializers.

    W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016; K. Simonyan, A. Zisserman, Very
    Deep Convolutional Networks for Large-Scale Image Recognition, ICLR 2015.

    ``forward(x)`` returns ``[norm4(relu(conv4_3)), relu(conv7)]``.
    """

    def __init__(self):
        super().__init__()
        with self.init_scope():
            for stage, n_conv, channels in ((1, 2, 64), (2, 2, 128), (3, 3, 256), (4, 3, 512)):
                for i in range(1, n_conv + 1):
                    setattr(self, f"conv{stage}_{i}", L.Convolution2D(channels, 3, pad=1))
            self.norm4 = Normalize(512, initial=initializers.Constant(20))
            for i in range(1, 4):
                setattr(self, f"conv5_{i}", L.DilatedConvolution2D(512, 3, pad=1))
            self.conv6 = L.DilatedConvolution2D(1024, 3, pad=6, dilate=6)
            self.conv7 = L.Convolution2D(1024, 1)

    def forward(self, x):
        """x: (B, 3, H, W) -> [(B, 512, H/8, W/8), (B, 1024, H/16, W/16)] (sizes rounded up)."""
        h = x
        for stage, n_conv in ((1, 2), (2, 2), (3, 3), (4, 3)):
            for i in range(1, n_conv + 1):
                h = F.relu(self[f"conv{stage}_{i}"](h))
            if stage == 4:
                ys = [self.norm4(h)]
            h = F.max_pooling_2d(h, 2)
        for i in range(1, 4):
            h = F.relu(self[f"conv5_{i}"](h))
        h = F.max_pooling_2d(h, 3, stride=1, pad=1)
        h = F.relu(self.conv6(h))
        ys.append(F.relu(self.conv7(h)))
        return ys


class _VGG16Extractor(VGG16):
    """VGG16 followed by pairs of convolutions ``conv<i>_1`` (1x1) and ``conv<i>_2`` (``_EXTRAS``), each
    pair's output one more feature map."""

    # (i, channels of conv<i>_1, of conv<i>_2, conv<i>_2's ksize, stride, pad)
    _EXTRAS = ()

    def __init__(self):
        super().__init__()
        init = {"initialW": initializers.LeCunUniform(), "initial_bias": initializers.Zero()}
        with self.init_scope():
            for i, c1, c2, ksize, stride, pad in self._EXTRAS:
                setattr(self, f"conv{i}_1", L.Convolution2D(c1, 1, **init))
                setattr(self, f"conv{i}_2", L.Convolution2D(c2, ksize, stride=stride, pad=pad, **init))

    def forward(self, x):
        """x: (B, 3, insize, insize) -> one (B, C_i, grids[i], grids[i]) Variable per feature map."""
        if x.ndim != 4 or x.shape[1:] != (3, self.insize, self.insize):
            raise ValueError(f"{type(self).__name__}: x must have shape (B, 3, {self.insize}, {self.insize}), "
                             f"got x.shape={tuple(x.shape)}")
        ys = super().forward(x)
        for i, *_ in self._EXTRAS:
            h = F.relu(self[f"conv{i}_1"](ys[-1]))
            ys.append(F.relu(self[f"conv{i}_2"](h)))
        return ys


class VGG16Extractor300(_VGG16Extractor):
    """The feature extractor of :class:`SSD300`: ``conv4_3`` (normalized), ``conv7``, ``conv8_2``,
    ``conv9_2``, ``conv10_2`` and ``conv11_2``, on 300x300 images (grids 38, 19, 10, 5, 3, 1)."""

    insize = 300
    grids = (38, 19, 10, 5, 3, 1)
    _EXTRAS = ((8, 256, 512, 3, 2, 1), (9, 128, 256, 3, 2, 1), (10, 128, 256, 3, 1, 0), (11, 128, 256, 3, 1, 0))


class VGG16Extractor512(_VGG16Extractor):
    """The feature extractor of :class:`SSD512`: ``conv4_3`` (normalized), ``conv7``, ``conv8_2`` ..
    ``conv12_2``, on 512x512 images (grids 64, 32, 16, 8, 4, 2, 1)."""

    insize = 512
    grids = (64, 32, 16, 8, 4, 2, 1)
    _EXTRAS = ((8, 256, 512, 3, 2, 1), (9, 128, 256, 3, 2, 1), (10, 128, 256, 3, 2, 1), (11, 128, 256, 3, 2, 1),
               (12, 128, 256, 4, 1, 1))


class _SSDVGG16(SSD):
    """SSD300 / SSD512: the extractor, the head's aspect ratios, steps and sizes, and the pretrained models."""

    _extractor = None
    _aspect_ratios = ()
    _steps = ()
    _sizes = ()

    def __init__(self, n_fg_class=None, pretrained_model=None):
        owner = type(self).__name__
        partial = pretrained_model in ("imagenet", self._models["imagenet"]["zoo"])
        if partial and n_fg_class is None:     # before the download
            raise ValueError(f"{owner}: n_fg_class must be specified with pretrained_model={pretrained_model!r} "
                             f"(the VGG-16 base only)")
        param, path = prepare_pretrained_model({"n_fg_class": n_fg_class}, pretrained_model, self._models,
                                               owner=owner)
        n_fg_class = check_n_fg_class(owner, param["n_fg_class"])
        super().__init__(extractor=self._extractor(),
                         multibox=Multibox(n_class=n_fg_class + 1, aspect_ratios=self._aspect_ratios),
                         steps=self._steps, sizes=self._sizes, mean=IMAGENET_MEAN)
        if path:
            load_pretrained_weights(owner, self, path, required=IMAGENET_KEYS if partial else None)


class SSD300(_SSDVGG16):
    """SSD on 300x300 images (:class:`VGG16Extractor300`, 8732 default boxes).

    W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        ``'voc0712'`` (PASCAL VOC 2007+2012 trainval, converted by ChainerCV from the authors'
        Caffe model; zoo key ``'ssd300-voc0712'``), ``'imagenet'`` (the VGG-16 base only,
        ``'ssd300-imagenet'``: the other layers keep their random initialization, any
        ``n_fg_class``), a path to an ``.npz`` of this model, or None. The files are downloaded
        on first use (ChainerCV's URLs).

    ``mean`` is ChainerCV's (123, 117, 104) as float32; presets as :class:`SSD`.
    """

    _extractor = VGG16Extractor300
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 100, 300)
    _sizes = (30, 60, 111, 162, 213, 264, 315)
    _models = {"voc0712": {"param": {"n_fg_class": 20}, "zoo": "ssd300-voc0712", "cv2": True},
               "imagenet": {"zoo": "ssd300-imagenet", "cv2": True}}


class SSD512(_SSDVGG16):
    """SSD on 512x512 images (:class:`VGG16Extractor512`, 24564 default boxes).

    W. Liu et al., SSD: Single Shot MultiBox Detector, ECCV 2016.

    Parameters
    ----------
    n_fg_class : int or None
        Foreground classes; must be given unless ``pretrained_model='voc0712'`` (then 20 or None).
    pretrained_model : str, os.PathLike or None
        ``'voc0712'`` (zoo key ``'ssd512-voc0712'``), ``'imagenet'`` (the VGG-16 base only,
        ``'ssd512-imagenet'``), a path to an ``.npz`` of this model, or None; as :class:`SSD300`.

    ``mean`` is ChainerCV's (123, 117, 104) as float32; presets as :class:`SSD`.
    """

    _extractor = VGG16Extractor512
    _aspect_ratios = ((2,), (2, 3), (2, 3), (2, 3), (2, 3), (2,), (2,))
    _steps = (8, 16, 32, 64, 128, 256, 512)
    _sizes = (35.84, 76.8, 153.6, 230.4, 307.2, 384.0, 460.8, 537.6)
    _models = {"voc0712": {"param": {"n_fg_class": 20}, "zoo": "ssd512-voc0712", "cv2": True},
               "imagenet": {"zoo": "ssd512-imagenet", "cv2": True}}
