"""Datasets across ranks: scatter_dataset, scatter_index, create_empty_dataset."""
from kusari.distributed.datasets.scatter import DataSizeError, scatter_dataset, scatter_index  # NOQA
from kusari.distributed.datasets.empty_dataset import create_empty_dataset  # NOQA
