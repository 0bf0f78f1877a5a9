"""kusari.vision.chainer_experimental.training.extensions: ``make_shift``."""
from kusari.vision.chainer_experimental.training.extensions.make_shift import make_shift  # NOQA
