"""SE-ResNet-50/101/152 (Hu et al., 2018): ResNet with a squeeze-and-excitation block in each bottleneck
(ChainerCV's chainercv.links.model.senet.SEResNet*)."""
from kusari.vision.links.model.resnet.resnet import BLOCKS, ResNetBase, imagenet_models


class SEResNet(ResNetBase):
    """SE-ResNet with 50, 101 or 152 layers: Kaiming He's ResNet (stride in the first 1x1
    convolution, ``conv1`` without bias) with an SE block (``se``) ending every residual branch.

    The layers, inputs and outputs are :class:`~kusari.vision.links.model.resnet.ResNet`'s.
    ``pretrained_model='imagenet'``: the weights of Hu et al.'s Caffe models, converted by
    ChainerCV (zoo keys ``'se-resnet50-imagenet'``...).

    Parameters
    ----------
    n_layer : int
        50, 101 or 152.
    n_class, pretrained_model, mean, initialW, fc_kwargs
        As in :class:`~kusari.vision.links.model.resnet.ResNet`.
    """

    _models = {n: imagenet_models(f"se-resnet{n}-imagenet") for n in BLOCKS}

    def __init__(self, n_layer: int, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        if n_layer not in self._models:
            raise ValueError(f"{type(self).__name__}: n_layer must be one of {sorted(self._models)}, "
                             f"got {n_layer!r}")
        super().__init__(BLOCKS[n_layer], (64, 128, 256, 512), self._models[n_layer], n_class,
                         pretrained_model, mean, initialW, fc_kwargs, conv1_nobias=True,
                         stride_first=True, add_seblock=True)


class SEResNet50(SEResNet):
    """SE-ResNet-50; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs)


class SEResNet101(SEResNet):
    """SE-ResNet-101; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs)


class SEResNet152(SEResNet):
    """SE-ResNet-152; see :class:`SEResNet` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        super().__init__(152, n_class, pretrained_model, mean, initialW, fc_kwargs)
