"""PSPNet (Zhao et al., CVPR 2017): the pyramid pooling module, the dilated ResNet it extracts features with,
and the model with its sliding-window prediction
(ChainerCV's chainercv.experimental.links.model.pspnet.PSPNet / PSPNetResNet50 / PSPNetResNet101)."""
import functools
import math

import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend, initializers
from kusari.vision.experimental.links.model.pspnet.transforms import convolution_crop
from kusari.vision.links import Conv2DBNActiv, PickableSequentialChain
from kusari.vision.links.model._images import predict_image
from kusari.vision.links.model.resnet import ResBlock
from kusari.vision.transforms import resize, resize_contain
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB, the ImageNet mean PSPNet's Caffe models subtract
_imagenet_mean = numpy.array((123.68, 116.779, 103.939), dtype=numpy.float32)[:, None, None]

PYRAMIDS = (6, 3, 2, 1)
# the extractor's output stride
STRIDE = 8


class PyramidPoolingModule(kusari.ChainList):
    """The input and, per pyramid level, its average pooling to about ``level x level`` cells, a 1x1
    convolution and a bilinear resize back, concatenated along the channels.

    Parameters
    ----------
    in_channels : int
    feat_size : tuple of two ints
        ``(height, width)`` of the feature map the pooling windows are sized for: level ``p`` pools
        with windows (and strides) of ``feat_size // p``.
    pyramids : sequence of ints
        The levels; each has a Conv2DBNActiv (child ``0``, ``1``, ...) to
        ``in_channels // len(pyramids)`` channels.
    initialW : initializer or None

    Input ``(N, in_channels, H, W)``, output ``(N, 2 * in_channels, H, W)`` when ``in_channels``
    divides by the number of levels.
    """

    def __init__(self, in_channels: int, feat_size, pyramids, initialW=None):
        kh = [feat_size[0] // p for p in pyramids]
        kw = [feat_size[1] // p for p in pyramids]
        if min(kh + kw) < 1:
            raise ValueError(f"PyramidPoolingModule: feat_size={tuple(feat_size)} is smaller than the pyramid "
                             f"levels {list(pyramids)} (each level pools with windows of feat_size // level)")
        out_channels = in_channels // len(pyramids)
        super().__init__(*[Conv2DBNActiv(in_channels, out_channels, 1, 1, 0, 1, initialW=initialW)
                           for _ in pyramids])
        self.ksizes = list(zip(kh, kw))

    def forward(self, x):
        """x: (N, in_channels, H, W) -> (N, in_channels + len(pyramids) * out_channels, H, W)."""
        H, W = x.shape[2:]
        ys = [x]
        for conv, ksize in zip(self, self.ksizes):
            ys.append(F.resize_images(conv(F.average_pooling_2d(x, ksize, ksize)), (H, W)))
        return F.concat(ys, axis=1)


class DilatedResNet(PickableSequentialChain):
    """ResNet-50 or -101 with a three-convolution stem and dilated (not strided) last two stages:
    output stride 8.

    Layers (``layer_names``): ``conv1_1`` (3x3, stride 2; input channels from the first input),
    ``conv1_2``, ``conv1_3``, ``pool1`` (3x3 max pooling, stride 2), ``res2``, ``res3`` (stride 2),
    ``res4`` (dilation 2), ``res5`` (dilation 4; 2048 channels). The bottlenecks stride in their 3x3
    convolution.

    ``pretrained_model``: None, ``'imagenet'`` (ChainerCV's ImageNet-trained weights), its zoo key
    (``'pspnet-dilated-resnet50-imagenet'``...), or a path to an ``.npz``.

    Parameters
    ----------
    n_layer : int
        50 or 101.
    pretrained_model : str, os.PathLike or None
    initialW : initializer or None
        Of the convolutions.
    """

    _blocks = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3)}

    _models = {n: {"imagenet": {"zoo": f"pspnet-dilated-resnet{n}-imagenet", "cv2": True}} for n in (50, 101)}

    def __init__(self, n_layer: int, pretrained_model=None, initialW=None):
        if n_layer not in self._blocks:
            raise ValueError(f"DilatedResNet: n_layer must be one of {sorted(self._blocks)}, got {n_layer!r}")
        n_block = self._blocks[n_layer]
        _, path = prepare_pretrained_model({}, pretrained_model, self._models[n_layer], owner="DilatedResNet")
        if path:  # the weights are overwritten: skip the sampling
            initialW = initializers.Zero()
        super().__init__()
        with self.init_scope():
            self.conv1_1 = Conv2DBNActiv(None, 64, 3, 2, 1, 1, initialW=initialW)
            self.conv1_2 = Conv2DBNActiv(64, 64, 3, 1, 1, 1, initialW=initialW)
            self.conv1_3 = Conv2DBNActiv(64, 128, 3, 1, 1, 1, initialW=initialW)
            self.pool1 = functools.partial(F.max_pooling_2d, ksize=3, stride=2, pad=1)
            self.res2 = ResBlock(n_block[0], 128, 64, 256, 1, 1, initialW=initialW, stride_first=False)
            self.res3 = ResBlock(n_block[1], 256, 128, 512, 2, 1, initialW=initialW, stride_first=False)
            self.res4 = ResBlock(n_block[2], 512, 256, 1024, 1, 2, initialW=initialW, stride_first=False)
            self.res5 = ResBlock(n_block[3], 1024, 512, 2048, 1, 4, initialW=initialW, stride_first=False)
        if path:
            load_pretrained_weights("DilatedResNet", self, path)


class PSPNet(kusari.Chain):
    """Pyramid Scene Parsing Network: a dilated ResNet, the pyramid pooling module and a two-layer head,
    the scores resized to the input's size.

    A base class: :class:`PSPNetResNet50` and :class:`PSPNetResNet101` choose the extractor and the
    pretrained models.

    ``pretrained_model``: None, ``'cityscapes'`` (19 classes, ``input_size`` 713x713), ``'ade20k'``
    (150, 473x473), their zoo keys (``'pspnet-resnet50-cityscapes'``...), ``'imagenet'`` (ImageNet
    weights for the extractor only; ``n_class`` must be given), or a path to an ``.npz``.

    ``predict`` subtracts ``mean`` and, for an image no longer than ``max(input_size)``, fits it into
    ``input_size`` (shrinking it if needed, padding with zeros after the mean subtraction); a larger
    image is cut into overlapping ``input_size`` crops (stride 2/3 of it). The probabilities of each
    crop and of its left-right flip are averaged. Set ``scales`` (e.g. ``(0.5, 1.0, 1.5)``) to
    average them over resized images too.

    Parameters
    ----------
    n_class : int or None
        Classes; None: those of the pretrained model.
    pretrained_model : str, os.PathLike or None
    input_size : int, tuple of two ints or None
        ``(height, width)`` the model works at; default 713x713, or the pretrained model's. At least
        48 (the pooling of the coarsest level needs a 6x6 feature map).
    initialW : initializer or None
        Of the convolutions.

    Child links: ``extractor`` (picking ``res4`` and ``res5``), ``ppm``, ``head_conv1``
    (Conv2DBNActiv 4096 -> 512, 3x3), ``head_conv2`` (1x1 -> n_class, with bias).
    """

    _extractor_cls = None
    _extractor_kwargs: dict = {}
    _extractor_pick = ("res4", "res5")
    _models: dict = {}

    def __init__(self, n_class=None, pretrained_model=None, input_size=None, initialW=None):
        owner = type(self).__name__
        if self._extractor_cls is None:
            raise TypeError("PSPNet is a base class: use PSPNetResNet50 or PSPNetResNet101")
        super().__init__()
        extractor_pretrained_model = None
        extractor_models = self._extractor_cls._models[self._extractor_kwargs["n_layer"]]
        if pretrained_model == "imagenet" or pretrained_model == extractor_models["imagenet"]["zoo"]:
            extractor_pretrained_model, pretrained_model = pretrained_model, None
        param, path = prepare_pretrained_model({"n_class": n_class, "input_size": input_size}, pretrained_model,
                                               self._models, {"input_size": (713, 713)}, owner=owner)
        input_size = param["input_size"]
        if not isinstance(input_size, (list, tuple)):
            input_size = (int(input_size), int(input_size))
        self.input_size = input_size
        feat_size = (input_size[0] // STRIDE, input_size[1] // STRIDE)
        if min(feat_size) < max(PYRAMIDS):
            raise ValueError(f"{owner}: input_size={tuple(input_size)} must be at least "
                             f"{STRIDE * max(PYRAMIDS)} in both dimensions")
        if initialW is None and pretrained_model:
            initialW = initializers.Zero()
        extractor = self._extractor_cls(**self._extractor_kwargs, pretrained_model=extractor_pretrained_model,
                                        initialW=initialW)
        extractor.pick = self._extractor_pick
        self.scales = None
        self.mean = _imagenet_mean
        with self.init_scope():
            self.extractor = extractor
            self.ppm = PyramidPoolingModule(2048, feat_size, PYRAMIDS, initialW=initialW)
            self.head_conv1 = Conv2DBNActiv(4096, 512, 3, 1, 1, initialW=initialW)
            self.head_conv2 = L.Convolution2D(512, param["n_class"], 1, 1, 0, False, initialW)
        if path:
            load_pretrained_weights(owner, self, path)

    @property
    def n_class(self) -> int:
        return self.head_conv2.out_channels

    def forward(self, x):
        """x: (N, 3, H, W), mean-subtracted -> scores (N, n_class, H, W)."""
        _, res5 = self.extractor(x)
        h = self.head_conv2(self.head_conv1(self.ppm(res5)))
        return F.resize_images(h, x.shape[2:])

    def _predict(self, imgs: numpy.ndarray):
        """Class probabilities (N, n_class, H, W) of mean-subtracted images (N, 3, H, W)."""
        with kusari.using_config("train", False):
            return F.softmax(self.forward(self.xp.asarray(imgs))).array

    def _predict_pair(self, img: numpy.ndarray):
        """The sum of the probabilities (n_class, H, W) of ``img`` (3, H, W) and of its left-right flip."""
        pair = self._predict(numpy.stack((img, img[:, :, ::-1])))
        return pair[0] + pair[1][:, :, ::-1]

    def _tile_predict(self, img: numpy.ndarray):
        """Class probabilities (n_class, H, W) of one image (3, H, W), fitted into or tiled by input_size."""
        if self.mean is not None:
            img = img - self.mean
        H, W = img.shape[1:]
        xp = self.xp
        if max(H, W) > max(self.input_size):
            stride = tuple(int(math.ceil(s * 2 / 3)) for s in self.input_size)
            crops, param = convolution_crop(img, self.input_size, stride, return_param=True)
            preds = xp.zeros((self.n_class, H, W), dtype=numpy.float32)
            counts = xp.zeros((H, W), dtype=numpy.float32)
            for crop, y, x, crop_y, crop_x in zip(crops, param["y_slices"], param["x_slices"],
                                                  param["crop_y_slices"], param["crop_x_slices"]):
                preds[:, y, x] += self._predict_pair(crop)[:, crop_y, crop_x]
                counts[y, x] += 2
            scores = preds / counts
        else:
            img, param = resize_contain(img, self.input_size, return_param=True)
            y, x = param["y_offset"], param["x_offset"]
            h, w = param["scaled_size"]
            scores = self._predict_pair(img)[:, y:y + h, x:x + w] / 2
        return F.resize_images(scores[None], (H, W))[0].array

    def predict(self, imgs) -> list:
        """Label every pixel of each image.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each of shape (3, H, W)
            CHW RGB images in [0, 255] (integer and float64 images are taken as float32).

        Returns
        -------
        list of numpy.ndarray, each int32 of shape (H, W)
        """
        labels = []
        for index, img in enumerate(imgs):
            img = predict_image(f"{type(self).__name__}.predict", img, index)
            with kusari.using_config("train", False), kusari.no_backprop_mode():
                if self.scales is not None:
                    scores = _multiscale_predict(self._tile_predict, img, self.scales)
                else:
                    scores = self._tile_predict(img)
            labels.append(numpy.argmax(backend.to_cpu(scores), axis=0).astype(numpy.int32))
        return labels


class PSPNetResNet101(PSPNet):
    """PSPNet with a dilated ResNet-101 (:class:`DilatedResNet`); see :class:`PSPNet`."""

    _extractor_cls = DilatedResNet
    _extractor_kwargs = {"n_layer": 101}
    _models = {
        "cityscapes": {"param": {"n_class": 19, "input_size": (713, 713)}, "zoo": "pspnet-resnet101-cityscapes"},
        "ade20k": {"param": {"n_class": 150, "input_size": (473, 473)}, "zoo": "pspnet-resnet101-ade20k"},
    }


class PSPNetResNet50(PSPNet):
    """PSPNet with a dilated ResNet-50 (:class:`DilatedResNet`); see :class:`PSPNet`."""

    _extractor_cls = DilatedResNet
    _extractor_kwargs = {"n_layer": 50}
    _models = {
        "cityscapes": {"param": {"n_class": 19, "input_size": (713, 713)}, "zoo": "pspnet-resnet50-cityscapes"},
        "ade20k": {"param": {"n_class": 150, "input_size": (473, 473)}, "zoo": "pspnet-resnet50-ade20k"},
    }


def _multiscale_predict(predict_method, img: numpy.ndarray, scales):
    """The mean over ``scales`` of ``predict_method``'s scores (n_class, H, W) of ``img`` resized by each
    scale, resized back to ``img``'s size."""
    H, W = img.shape[1:]
    scores = []
    for scale in scales:
        scaled = img if scale == 1.0 else resize(img, (int(H * scale), int(W * scale)))
        y = predict_method(scaled)[None]
        if scale != 1.0:
            y = F.resize_images(y, (H, W)).array
        scores.append(y)
    xp = backend.get_array_module(scores[0])
    return xp.stack(scores).mean(0)[0]
