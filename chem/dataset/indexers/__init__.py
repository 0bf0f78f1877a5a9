"""Feature indexers of the dataset classes."""
from kusari.chem.dataset.indexers.numpy_tuple_dataset_feature_indexer import (  # NOQA
    NumpyTupleDatasetFeatureIndexer)
