"""MobileNetV2 (Sandler et al., 2018), TensorFlow-compatible (ChainerCV's
chainercv.links.model.mobilenet.MobileNetV2, added after ChainerCV 0.13.1)."""
import functools

import numpy

import kusari.functions as F
from kusari.vision.links.model.mobilenet.expanded_conv_2d import ExpandedConv2D, relu6
from kusari.vision.links.model.mobilenet.tf_conv_2d_bn_activ import TFConv2DBNActiv
from kusari.vision.links.model.mobilenet.tf_convolution_2d import TFConvolution2D
from kusari.vision.links.model.mobilenet.util import _make_divisible, expand_input_by_factor
from kusari.vision.links.model.pickable_sequential_chain import PickableSequentialChain
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# TensorFlow's MobileNets scale [0, 255] images to [-1, 1]: the mean is 128 (and no scaling, as ChainerCV)
TF_MEAN = numpy.full((3, 1, 1), 128, dtype=numpy.float32)
# RGB; the ILSVRC 2012 mean, used when no pretrained model says otherwise
IMAGENET_MEAN = numpy.array([123.68, 116.779, 103.939], dtype=numpy.float32)[:, numpy.newaxis, numpy.newaxis]

# output channels of expanded_conv_1 .. expanded_conv_16 (before the depth multiplier)
_BLOCK_CHANNELS = (24,) * 2 + (32,) * 3 + (64,) * 4 + (96,) * 3 + (160,) * 3 + (320,)
_STRIDE_2_BLOCKS = (1, 3, 6, 13)
# TensorFlow-slim's batch normalization defaults
TF_BN_KWARGS = {"decay": 0.999, "eps": 0.001}


def _channels(base: int, depth_multiplier: float) -> int:
    return _make_divisible(base * depth_multiplier, 8, 8)


def _global_average_pool(x):
    return F.average_pooling_2d(x, ksize=x.shape[2:4], stride=1)


class MobileNetV2(PickableSequentialChain):
    """MobileNetV2 as TensorFlow's slim implementation builds it: a pickable sequential chain.

    Layers (``layer_names``): ``conv``, ``expanded_conv``, ``expanded_conv_1`` ..
    ``expanded_conv_16``, ``conv1``, ``global_average_pool``, ``logits_conv``, ``squeeze``,
    ``softmax``. By default ``forward`` returns ``softmax``.

    Input: images ``(N, 3, H, W)``, float32, mean-subtracted (``model.mean``); outputs ``conv1``
    (N, 1280 x multiplier, H/32, W/32) ... ``squeeze``/``softmax`` (N, n_class).

    Parameters
    ----------
    n_class : int or None
        Classes; None: those of the pretrained model (1001: TensorFlow's background class
        first), else 1000.
    pretrained_model : str, os.PathLike or None
        None, ``'imagenet'`` (TensorFlow's weights converted by ChainerCV, for
        ``depth_multiplier`` 1.0 and 1.4; zoo keys ``'mobilenetv2-1.0-imagenet'`` and
        ``'mobilenetv2-1.4-imagenet'``) or a path to an ``.npz``.
    mean : numpy.ndarray of shape (3, 1, 1) or None
        None: the pretrained model's (128), else :data:`IMAGENET_MEAN`.
    initialW, initial_bias : initializer or None
        Of the convolutions and of the logits' bias.
    arch : str
        ``'tf'`` (the only one).
    depth_multiplier : float
        Scales every layer's channels (> 0).
    bn_kwargs : dict or None
        Keyword arguments of every batch normalization (default TensorFlow-slim's, decay 0.999,
        eps 0.001).
    thousand_categories_mode : bool
        Drop the background class of a 1001-class model after loading (``n_class`` becomes
        1000).
    """

    _models = {
        "tf": {
            multiplier: {"imagenet": {"param": {"n_class": 1001, "mean": TF_MEAN}, "overwritable": {"mean"},
                                      "zoo": f"mobilenetv2-{multiplier}-imagenet"}}
            for multiplier in (1.0, 1.4)
        }
    }

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None, initial_bias=None,
                 arch: str = "tf", depth_multiplier: float = 1., bn_kwargs: dict | None = None,
                 thousand_categories_mode: bool = False):
        if arch not in self._models:
            raise ValueError(f"MobileNetV2: arch must be one of {sorted(self._models)}, got {arch!r}")
        if not depth_multiplier > 0:
            raise ValueError(f"MobileNetV2: depth_multiplier must be greater than 0, got {depth_multiplier!r}")
        param, path = prepare_pretrained_model({"n_class": n_class, "mean": mean}, pretrained_model,
                                               self._models[arch].get(depth_multiplier, {}),
                                               {"n_class": 1000, "mean": IMAGENET_MEAN}, owner="MobileNetV2")
        bn_kwargs = dict(TF_BN_KWARGS) if bn_kwargs is None else bn_kwargs
        super().__init__()
        self.mean = param["mean"]
        self.n_class = param["n_class"]
        conv_kwargs = {"initialW": initialW, "bn_kwargs": bn_kwargs}
        with self.init_scope():
            in_channels = _channels(32, depth_multiplier)
            self.conv = TFConv2DBNActiv(3, in_channels, ksize=3, stride=2, nobias=True, activ=relu6,
                                        **conv_kwargs)
            out_channels = _channels(16, depth_multiplier)
            self.expanded_conv = ExpandedConv2D(in_channels, out_channels,
                                                expansion_size=expand_input_by_factor(1, divisible_by=1),
                                                **conv_kwargs)
            in_channels = out_channels
            for layer_id, base in enumerate(_BLOCK_CHANNELS, start=1):
                out_channels = _channels(base, depth_multiplier)
                stride = 2 if layer_id in _STRIDE_2_BLOCKS else 1
                setattr(self, f"expanded_conv_{layer_id}",
                        ExpandedConv2D(in_channels, out_channels, depthwise_stride=stride, **conv_kwargs))
                in_channels = out_channels
            conv1_channels = 1280 if depth_multiplier < 1 else _channels(1280, depth_multiplier)
            self.conv1 = TFConv2DBNActiv(in_channels, conv1_channels, ksize=1, nobias=True, activ=relu6,
                                         **conv_kwargs)
            self.global_average_pool = _global_average_pool
            self.logits_conv = TFConvolution2D(conv1_channels, self.n_class, ksize=1, nobias=False,
                                               initialW=initialW, initial_bias=initial_bias)
            self.squeeze = functools.partial(F.squeeze, axis=(2, 3))
            self.softmax = F.softmax
        if path:
            load_pretrained_weights("MobileNetV2", self, path)
        if thousand_categories_mode and self.n_class > 1000:
            logits = self.logits_conv
            logits.W.array = logits.W.array[1:].copy()
            logits.b.array = logits.b.array[1:].copy()
            self.n_class -= 1
