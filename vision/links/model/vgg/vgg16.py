"""VGG-16 (Simonyan & Zisserman, 2015) (ChainerCV's chainercv.links.model.vgg.VGG16)."""
import functools

import numpy

import kusari.functions as F
import kusari.links as L
from kusari import initializers
from kusari.vision.links.connection import Conv2DActiv
from kusari.vision.links.model.pickable_sequential_chain import PickableSequentialChain
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB; the mean of the ILSVRC 2012 training images used by the paper's Caffe models
IMAGENET_MEAN = numpy.array([123.68, 116.779, 103.939], dtype=numpy.float32)[:, numpy.newaxis, numpy.newaxis]

# (stage, convolutions, channels)
_STAGES = ((1, 2, 64), (2, 2, 128), (3, 3, 256), (4, 3, 512), (5, 3, 512))


class VGG16(PickableSequentialChain):
    """VGG-16: a pickable sequential chain.

    Layers (``layer_names``): ``conv1_1``, ``conv1_2``, ``pool1``, ``conv2_1``, ``conv2_2``,
    ``pool2``, ``conv3_1``..``conv3_3``, ``pool3``, ``conv4_1``..``conv4_3``, ``pool4``,
    ``conv5_1``..``conv5_3``, ``pool5``, ``fc6``, ``fc6_relu``, ``fc6_dropout``, ``fc7``,
    ``fc7_relu``, ``fc7_dropout``, ``fc8``, ``prob``. The ``convX_Y`` outputs are after ReLU,
    ``fc6``/``fc7`` before it. By default ``forward`` returns ``prob``.

    Input: images ``(N, 3, H, W)``, float32, mean-subtracted (``model.mean``); ``fc6`` takes the
    flattened ``pool5`` (N, 512, H/32, W/32) and its input size is set by the first input (or
    the pretrained weights: 224x224 images).

    Parameters
    ----------
    n_class : int or None
        Classes of ``fc8``; None: those of the pretrained model, else 1000.
    pretrained_model : str, os.PathLike or None
        None, ``'imagenet'`` (the paper's Caffe weights converted by ChainerCV; zoo key
        ``'vgg16-imagenet'``) or a path to an ``.npz``.
    mean : numpy.ndarray of shape (3, 1, 1) or None
        None: the pretrained model's, else :data:`IMAGENET_MEAN`.
    initialW : initializer or None
        Of every convolution and linear layer (default normal, std 0.01).
    initial_bias : initializer or None
        Of every bias (default 0).
    """

    _models = {"imagenet": {"param": {"n_class": 1000, "mean": IMAGENET_MEAN}, "overwritable": {"mean"},
                            "zoo": "vgg16-imagenet"}}

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None, initial_bias=None):
        param, path = prepare_pretrained_model({"n_class": n_class, "mean": mean}, pretrained_model,
                                               self._models, {"n_class": 1000, "mean": IMAGENET_MEAN},
                                               owner="VGG16")
        if initialW is None:
            initialW = initializers.Normal(0.01)
        if path:  # the weights are overwritten: skip the sampling
            initialW = initializers.Zero()
        kwargs = {"initialW": initialW, "initial_bias": initial_bias}
        super().__init__()
        self.mean = param["mean"]
        with self.init_scope():
            for stage, n_conv, channels in _STAGES:
                for i in range(1, n_conv + 1):
                    setattr(self, f"conv{stage}_{i}", Conv2DActiv(None, channels, 3, 1, 1, **kwargs))
                setattr(self, f"pool{stage}", functools.partial(F.max_pooling_2d, ksize=2))
            for name, size in (("fc6", 4096), ("fc7", 4096)):
                setattr(self, name, L.Linear(None, size, **kwargs))
                setattr(self, f"{name}_relu", F.relu)
                setattr(self, f"{name}_dropout", F.dropout)
            self.fc8 = L.Linear(None, param["n_class"], **kwargs)
            self.prob = F.softmax
        if path:
            load_pretrained_weights("VGG16", self, path)
