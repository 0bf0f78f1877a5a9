"""kusari.chem.datasets (Chainer Chemistry's chainer_chemistry.datasets)."""
from kusari.chem.datasets import numpy_tuple_dataset  # NOQA
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # NOQA
