"""kusari.vision.chainer_experimental: ChainerCV 0.13.1's ``chainercv.chainer_experimental`` (sliceable
datasets and the ``make_shift`` training helper)."""
from kusari.vision.chainer_experimental import datasets  # NOQA
from kusari.vision.chainer_experimental import training  # NOQA
