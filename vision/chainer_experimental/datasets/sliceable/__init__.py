"""Sliceable datasets (ChainerCV 0.13.1's ``chainercv.chainer_experimental.datasets.sliceable``).

A sliceable dataset names the values of its examples (``keys``) and returns views that select
examples and values without reading the others: ``dataset.slice[indices, keys]``.
"""
from kusari.vision.chainer_experimental.datasets.sliceable.sliceable_dataset import SliceableDataset  # NOQA

from kusari.vision.chainer_experimental.datasets.sliceable.concatenated_dataset import ConcatenatedDataset  # NOQA
from kusari.vision.chainer_experimental.datasets.sliceable.getter_dataset import GetterDataset  # NOQA
from kusari.vision.chainer_experimental.datasets.sliceable.transform_dataset import TransformDataset  # NOQA
from kusari.vision.chainer_experimental.datasets.sliceable.tuple_dataset import TupleDataset  # NOQA
