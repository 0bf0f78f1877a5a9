"""kusari.vision.chainer_experimental.training: training helpers."""
from kusari.vision.chainer_experimental.training import extensions  # NOQA
