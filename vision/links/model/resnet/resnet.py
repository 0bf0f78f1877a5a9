"""ResNet-50/101/152 (He et al., 2016) in Facebook's ('fb') and Kaiming He's ('he') variants
(ChainerCV's chainercv.links.model.resnet.ResNet*)."""
import functools

import numpy

import kusari.functions as F
import kusari.links as L
from kusari import initializers
from kusari.vision.links.connection import Conv2DBNActiv
from kusari.vision.links.model.pickable_sequential_chain import PickableSequentialChain
from kusari.vision.links.model.resnet.resblock import ResBlock
from kusari.vision.utils import load_pretrained_weights, prepare_pretrained_model

# RGB; the channel-wise mean of the mean image Kaiming He distributes with his ResNets
IMAGENET_MEAN = numpy.array([123.15163084, 115.90288257, 103.0626238],
                            dtype=numpy.float32)[:, numpy.newaxis, numpy.newaxis]

BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def imagenet_models(zoo_key: str, cv2: bool = False) -> dict:
    """A ``_models`` table with one entry, ``'imagenet'`` (1000 classes, :data:`IMAGENET_MEAN`)."""
    model = {"param": {"n_class": 1000, "mean": IMAGENET_MEAN}, "overwritable": {"mean"}, "zoo": zoo_key}
    if cv2:
        model["cv2"] = True
    return {"imagenet": model}


class ResNetBase(PickableSequentialChain):
    """The layers the ResNet family shares: ``conv1``, ``pool1``, ``res2``..``res5``, ``pool5``,
    ``fc6``, ``prob`` (the pickable layer names).

    Subclasses choose the table of pretrained models, the bottleneck widths and the block options.

    Parameters
    ----------
    blocks : tuple of 4 ints
        Bottlenecks per stage.
    mid_channels : tuple of 4 ints
        Bottleneck widths per stage (the outputs are 256, 512, 1024, 2048).
    models : dict
        The pretrained models of this configuration (see
        :func:`kusari.vision.utils.prepare_pretrained_model`).
    n_class, pretrained_model, mean, initialW, fc_kwargs
        As in :class:`ResNet`.
    conv1_nobias : bool
        ``conv1`` without bias.
    block_kwargs
        Passed to every :class:`ResBlock` (``stride_first``, ``groups``, ``add_seblock``).
    """

    def __init__(self, blocks, mid_channels, models: dict, n_class, pretrained_model, mean, initialW,
                 fc_kwargs, conv1_nobias: bool, **block_kwargs):
        owner = type(self).__name__
        param, path = prepare_pretrained_model({"n_class": n_class, "mean": mean}, pretrained_model,
                                               models, {"n_class": 1000, "mean": IMAGENET_MEAN},
                                               owner=owner)
        fc_kwargs = dict(fc_kwargs or {})
        if initialW is None:
            initialW = initializers.HeNormal(scale=1., fan_option="fan_out")
        fc_kwargs.setdefault("initialW", initializers.Normal(scale=0.01))
        if path:  # the weights are overwritten: skip the sampling
            initialW = initializers.Zero()
            fc_kwargs["initialW"] = initializers.Zero()
        super().__init__()
        self.mean = param["mean"]
        out_channels = (256, 512, 1024, 2048)
        strides = (1, 2, 2, 2)
        with self.init_scope():
            self.conv1 = Conv2DBNActiv(None, 64, 7, 2, 3, nobias=conv1_nobias, initialW=initialW)
            self.pool1 = functools.partial(F.max_pooling_2d, ksize=3, stride=2)
            for i, stage in enumerate(zip(blocks, mid_channels, out_channels, strides)):
                n_layer, mid, out, stride = stage
                setattr(self, f"res{i + 2}", ResBlock(n_layer, None, mid, out, stride, initialW=initialW,
                                                      **block_kwargs))
            self.pool5 = functools.partial(F.average, axis=(2, 3))
            self.fc6 = L.Linear(None, param["n_class"], **fc_kwargs)
            self.prob = F.softmax
        if path:
            load_pretrained_weights(owner, self, path)


class ResNet(ResNetBase):
    """ResNet with 50, 101 or 152 layers: a pickable sequential chain.

    Layers (``layer_names``): ``conv1``, ``pool1``, ``res2``, ``res3``, ``res4``, ``res5``,
    ``pool5``, ``fc6``, ``prob``. By default ``forward`` returns ``prob``, the class
    probabilities; set ``pick`` to get others (``model.pick = ['res5', 'fc6']``).

    Input: images ``(N, 3, H, W)``, float32, mean-subtracted (``model.mean``, RGB, [0, 255]
    scale); outputs: ``res2`` (N, 256, H/4, W/4) ... ``res5`` (N, 2048, H/32, W/32),
    ``pool5`` (N, 2048), ``fc6`` and ``prob`` (N, n_class).

    ``pretrained_model``: None, ``'imagenet'`` (ChainerCV's ImageNet weights: trained by
    ChainerCV for ``arch='fb'``, converted from Kaiming He's Caffe models for ``arch='he'``),
    the zoo key it resolves to (``'resnet50-fb-imagenet'``...), or a path to an ``.npz``.

    Parameters
    ----------
    n_layer : int
        50, 101 or 152.
    n_class : int or None
        Classes of ``fc6``; None: those of the pretrained model, else 1000.
    pretrained_model : str, os.PathLike or None
    mean : numpy.ndarray of shape (3, 1, 1) or None
        None: the pretrained model's, else :data:`IMAGENET_MEAN`.
    initialW : initializer or None
        Of the convolutions (default He normal, fan-out).
    fc_kwargs : dict or None
        Keyword arguments of ``fc6`` (:class:`kusari.links.Linear`).
    arch : {'fb', 'he'}
        ``'fb'`` strides in each bottleneck's 3x3 convolution; ``'he'`` (the paper's) in its
        first 1x1 convolution, and gives ``conv1`` a bias in ResNet-50.
    """

    _models = {
        arch: {n: imagenet_models(f"resnet{n}-{arch}-imagenet", cv2=arch == "fb") for n in BLOCKS}
        for arch in ("fb", "he")
    }

    def __init__(self, n_layer: int, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None, arch: str = "fb"):
        if arch not in ("fb", "he"):
            raise ValueError(f"{type(self).__name__}: arch must be 'fb' or 'he', got {arch!r}")
        if n_layer not in BLOCKS:
            raise ValueError(f"{type(self).__name__}: n_layer must be one of {sorted(BLOCKS)}, "
                             f"got {n_layer!r}")
        # Kaiming He's models have a bias in conv1 only in ResNet-50
        conv1_nobias = arch == "fb" or n_layer != 50
        super().__init__(BLOCKS[n_layer], (64, 128, 256, 512), self._models[arch][n_layer], n_class,
                         pretrained_model, mean, initialW, fc_kwargs, conv1_nobias,
                         stride_first=arch == "he")


class ResNet50(ResNet):
    """ResNet-50; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None, arch: str = "fb"):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs, arch)


class ResNet101(ResNet):
    """ResNet-101; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None, arch: str = "fb"):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs, arch)


class ResNet152(ResNet):
    """ResNet-152; see :class:`ResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None, arch: str = "fb"):
        super().__init__(152, n_class, pretrained_model, mean, initialW, fc_kwargs, arch)
