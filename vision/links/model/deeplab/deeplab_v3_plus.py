"""DeepLab v3+ (Chen et al., ECCV 2018): its decoder, the model and the Xception-65 configuration
(ChainerCV's chainercv.links.model.deeplab.Decoder / DeepLabV3plus / DeepLabV3plusXception65)."""
import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import backend
from kusari.vision.links.connection import Conv2DBNActiv, SeparableConv2DBNActiv
from kusari.vision.links.model._images import predict_image
from kusari.vision.links.model.deeplab.aspp import SeparableASPP
from kusari.vision.links.model.deeplab.xception import Xception65
from kusari.vision.transforms import resize
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model


class Decoder(kusari.Chain):
    """DeepLab v3+'s decoder: the low-level feature, projected, joins the upsampled head output.

    ``forward(x, pool)``: ``x`` (the low-level feature) goes through a 1x1 convolution
    (``feature_proj``, to ``proj_channels``); ``pool`` (the ASPP output) is resized bilinearly to
    its size and put before it; two 3x3 separable convolutions and a 1x1 convolution with bias
    give the logits.

    Parameters
    ----------
    in_channels : int
        Channels of ``x`` and of ``pool``.
    out_channels : int
        Channels of the output (the classes).
    proj_channels : int
        Output channels of ``feature_proj``.
    depth_channels : int
        Channels of the separable convolutions.
    bn_kwargs : dict or None
        Keyword arguments of the separable convolutions' batch normalizations (``feature_proj``'s
        keeps the defaults, as in ChainerCV).

    Child links: ``feature_proj``, ``conv1``, ``conv2``, ``conv_logits``.
    Inputs ``(N, in_channels, H, W)`` and ``(N, in_channels, h, w)``; output
    ``(N, out_channels, H, W)``.
    """

    def __init__(self, in_channels: int, out_channels: int, proj_channels: int, depth_channels: int,
                 bn_kwargs: dict | None = None):
        super().__init__()
        with self.init_scope():
            self.feature_proj = Conv2DBNActiv(in_channels, proj_channels, 1)
            self.conv1 = SeparableConv2DBNActiv(in_channels + proj_channels, depth_channels, 3, 1, 1, 1,
                                                nobias=True, dw_activ=F.relu, pw_activ=F.relu,
                                                bn_kwargs=bn_kwargs)
            self.conv2 = SeparableConv2DBNActiv(depth_channels, depth_channels, 3, 1, 1, 1, nobias=True,
                                                dw_activ=F.relu, pw_activ=F.relu, bn_kwargs=bn_kwargs)
            self.conv_logits = L.Convolution2D(depth_channels, out_channels, 1, 1, 0)

    def forward(self, x, pool):
        """x (N, in_channels, H, W), pool (N, in_channels, h, w) -> logits (N, out_channels, H, W)."""
        x = self.feature_proj(x)
        pool = F.resize_images(pool, x.shape[2:])
        h = self.conv2(self.conv1(F.concat((pool, x), axis=1)))
        return self.conv_logits(h)


class DeepLabV3plus(kusari.Chain):
    """DeepLab v3+: a feature extractor, an ASPP head and a decoder.

    Parameters
    ----------
    feature_extractor : kusari.Link
        Returns ``(lowlevel, highlevel)`` feature maps; its ``mean`` (3, 1, 1) fills the padding.
    aspp : kusari.Link
        Applied to ``highlevel``.
    decoder : kusari.Link
        Called as ``decoder(lowlevel, aspp_output)``; returns the logits.
    min_input_size : int or tuple of two ints
        ``predict`` pads smaller images (bottom and right, with ``feature_extractor.mean``) to this
        ``(height, width)``.
    scales : tuple of floats
        ``predict`` averages the class probabilities of the image resized by each scale.
    flip : bool
        ``predict`` averages in the probabilities of the left-right flipped image too (at every
        scale).

    Child links: ``feature_extractor``, ``aspp``, ``decoder``.
    """

    def __init__(self, feature_extractor, aspp, decoder, min_input_size, scales=(1.0,), flip=False):
        super().__init__()
        if not isinstance(min_input_size, (list, tuple)):
            min_input_size = (int(min_input_size), int(min_input_size))
        self.min_input_size = min_input_size
        self.scales = scales
        self.flip = flip
        with self.init_scope():
            self.feature_extractor = feature_extractor
            self.aspp = aspp
            self.decoder = decoder

    def prepare(self, image: numpy.ndarray) -> numpy.ndarray:
        """An image padded to ``min_input_size`` (with the extractor's mean) and scaled to [-1, 1].

        Parameters
        ----------
        image : numpy.ndarray, shape (3, H, W)
            CHW RGB in [0, 255].

        Returns
        -------
        numpy.ndarray, float32, shape (3, max(H, min_H), max(W, min_W))
        """
        _, H, W = image.shape
        padded = numpy.empty((3, max(self.min_input_size[0], H), max(self.min_input_size[1], W)),
                             dtype=numpy.float32)
        padded[:] = self.feature_extractor.mean
        padded[:, :H, :W] = image
        return padded / 127.5 - 1.0

    def forward(self, x):
        """x: (N, 3, H, W), prepared -> logits (N, n_class, H/4, W/4) (sizes rounded up)."""
        lowlevel, highlevel = self.feature_extractor(x)
        return self.decoder(lowlevel, self.aspp(highlevel))

    def _get_proba(self, img: numpy.ndarray, scale: float, flip: bool) -> numpy.ndarray:
        """Class probabilities (n_class, H, W) of ``img`` (3, H, W) resized by ``scale``, flipped or not."""
        if flip:
            img = img[:, :, ::-1]
        _, H, W = img.shape
        h, w = (H, W) if scale == 1.0 else (int(H * scale), int(W * scale))
        if h == 0 or w == 0:
            raise ValueError(f"{type(self).__name__}.predict: scale {scale} shrinks a {H}x{W} image to "
                             f"{h}x{w} pixels")
        if scale != 1.0:
            img = resize(img, (h, w))
        x = self.prepare(img)
        prob = F.softmax(self.forward(self.xp.asarray(x[numpy.newaxis])), axis=1)
        score = backend.to_cpu(F.resize_images(prob, x.shape[1:])[0, :, :h, :w].array)
        if scale != 1.0:
            score = resize(score, (H, W))
        return score[:, :, ::-1] if flip else score

    def predict(self, imgs) -> list:
        """Label every pixel of each image.

        The class probabilities of each scale of ``scales`` (and of the flipped image when
        ``flip``) are averaged, at the image's size; the label is their argmax.

        Parameters
        ----------
        imgs : iterable of numpy.ndarray, each of shape (3, H, W)
            CHW RGB images in [0, 255] (integer and float64 images are taken as float32).

        Returns
        -------
        list of numpy.ndarray, each int32 of shape (H, W)
        """
        flips = (False, True) if self.flip else (False,)
        labels = []
        with kusari.using_config("train", False), kusari.no_backprop_mode():
            for index, img in enumerate(imgs):
                img = predict_image(f"{type(self).__name__}.predict", img, index)
                score = sum(self._get_proba(img, scale, flip) for scale in self.scales for flip in flips)
                score /= len(self.scales) * len(flips)
                labels.append(numpy.argmax(score, axis=0).astype(numpy.int32))
        return labels


def _pretrained(n_class: int, min_input_size: tuple, zoo: str) -> dict:
    """A ``_models`` entry of DeepLabV3plusXception65: TensorFlow's batch normalization settings."""
    return {"param": {"n_class": n_class, "min_input_size": min_input_size, "scales": (1.0,), "flip": False,
                      "extractor_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-3}},
                      "aspp_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}},
                      "decoder_kwargs": {"bn_kwargs": {"decay": 0.9997, "eps": 1e-5}}},
            "overwritable": ("scales", "flip"), "zoo": zoo}


class DeepLabV3plusXception65(DeepLabV3plus):
    """DeepLab v3+ with Xception-65 (output stride 8), an ASPP of 256 channels and a decoder with a
    48-channel projection of the low-level feature.

    ``pretrained_model``: None, ``'voc'`` (21 classes, ``min_input_size`` 513x513), ``'cityscapes'``
    (19, 1025x2049) or ``'ade20k'`` (150, 513x513), weights ChainerCV converted from TensorFlow's
    DeepLab, their zoo keys (``'deeplabv3plus-xception65-voc'``...), or a path to an ``.npz``. A
    pretrained model fixes every argument but ``scales`` and ``flip``.

    Parameters
    ----------
    n_class : int or None
        Classes; None: those of the pretrained model (it must then be given).
    pretrained_model : str, os.PathLike or None
    min_input_size : int, tuple of two ints or None
        See :class:`DeepLabV3plus` (default 513x513).
    scales : tuple of floats or None
        Default ``(1.0,)``.
    flip : bool or None
        Default False.
    extractor_kwargs, aspp_kwargs, decoder_kwargs : dict or None
        Keyword arguments of :class:`Xception65`, :class:`SeparableASPP` and :class:`Decoder`
        (e.g. ``bn_kwargs``); default none.
    """

    _models = {
        "voc": _pretrained(21, (513, 513), "deeplabv3plus-xception65-voc"),
        "cityscapes": _pretrained(19, (1025, 2049), "deeplabv3plus-xception65-cityscapes"),
        "ade20k": _pretrained(150, (513, 513), "deeplabv3plus-xception65-ade20k"),
    }

    def __init__(self, n_class=None, pretrained_model=None, min_input_size=None, scales=None, flip=None,
                 extractor_kwargs=None, aspp_kwargs=None, decoder_kwargs=None):
        param, path = prepare_pretrained_model(
            {"n_class": n_class, "min_input_size": min_input_size, "scales": scales, "flip": flip,
             "extractor_kwargs": extractor_kwargs, "aspp_kwargs": aspp_kwargs,
             "decoder_kwargs": decoder_kwargs},
            pretrained_model, self._models,
            {"min_input_size": (513, 513), "scales": (1.0,), "flip": False, "extractor_kwargs": {},
             "aspp_kwargs": {}, "decoder_kwargs": {}}, owner="DeepLabV3plusXception65")
        super().__init__(Xception65(**param["extractor_kwargs"]),
                         SeparableASPP(2048, 256, **param["aspp_kwargs"]),
                         Decoder(256, param["n_class"], 48, 256, **param["decoder_kwargs"]),
                         min_input_size=param["min_input_size"], scales=param["scales"], flip=param["flip"])
        if path:
            load_pretrained_weights("DeepLabV3plusXception65", self, path)
