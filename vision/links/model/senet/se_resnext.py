"""SE-ResNeXt-50/101 (Xie et al., 2017; Hu et al., 2018): ResNeXt (32 groups in each 3x3 convolution) with
squeeze-and-excitation blocks (ChainerCV's chainercv.links.model.senet.SEResNeXt*)."""
from kusari.vision.links.model.resnet.resnet import BLOCKS, ResNetBase, imagenet_models


class SEResNeXt(ResNetBase):
    """SE-ResNeXt with 50 or 101 layers: bottlenecks twice as wide as ResNet's (128, 256, 512,
    1024) whose 3x3 convolutions have 32 groups and a stride (Facebook's placement), each residual
    branch ending with an SE block (``se``).

    The layers, inputs and outputs are :class:`~kusari.vision.links.model.resnet.ResNet`'s.
    ``pretrained_model='imagenet'``: the weights of Hu et al.'s Caffe models, converted by
    ChainerCV (zoo keys ``'se-resnext50-imagenet'``, ``'se-resnext101-imagenet'``).

    Parameters
    ----------
    n_layer : int
        50 or 101.
    n_class, pretrained_model, mean, initialW, fc_kwargs
        As in :class:`~kusari.vision.links.model.resnet.ResNet`.
    """

    _models = {n: imagenet_models(f"se-resnext{n}-imagenet") for n in (50, 101)}

    def __init__(self, n_layer: int, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        if n_layer not in self._models:
            raise ValueError(f"{type(self).__name__}: n_layer must be one of {sorted(self._models)}, "
                             f"got {n_layer!r}")
        super().__init__(BLOCKS[n_layer], (128, 256, 512, 1024), self._models[n_layer], n_class,
                         pretrained_model, mean, initialW, fc_kwargs, conv1_nobias=True,
                         groups=32, stride_first=False, add_seblock=True)


class SEResNeXt50(SEResNeXt):
    """SE-ResNeXt-50; see :class:`SEResNeXt` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        super().__init__(50, n_class, pretrained_model, mean, initialW, fc_kwargs)


class SEResNeXt101(SEResNeXt):
    """SE-ResNeXt-101; see :class:`SEResNeXt` for the arguments."""

    def __init__(self, n_class=None, pretrained_model=None, mean=None, initialW=None,
                 fc_kwargs: dict | None = None):
        super().__init__(101, n_class, pretrained_model, mean, initialW, fc_kwargs)
