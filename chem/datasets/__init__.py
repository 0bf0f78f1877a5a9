"""kusari.chem.datasets (Chainer Chemistry's chainer_chemistry.datasets)."""
from kusari.chem.datasets import numpy_tuple_dataset  # NOQA
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset  # NOQA
from kusari.chem.datasets import molnet  # NOQA
from kusari.chem.datasets import qm9  # NOQA
from kusari.chem.datasets.qm9 import get_qm9, get_qm9_filepath, get_qm9_label_names  # NOQA
