"""kusari.vision.chainer_experimental.datasets: sliceable datasets."""
from kusari.vision.chainer_experimental.datasets import sliceable  # NOQA
