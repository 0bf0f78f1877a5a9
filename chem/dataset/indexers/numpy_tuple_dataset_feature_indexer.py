"""NumpyTupleDatasetFeatureIndexer: ``NumpyTupleDataset.features[i, j]``, item ``i`` of the ``j``-th array."""
from kusari.chem.dataset.indexer import BaseFeatureIndexer


class NumpyTupleDatasetFeatureIndexer(BaseFeatureIndexer):
    """Feature indexer of a NumpyTupleDataset: feature ``j`` is its ``j``-th array.

    Parameters
    ----------
    dataset : NumpyTupleDataset
        The dataset indexed.
    """

    def __init__(self, dataset):
        super().__init__(dataset)
        self.datasets = dataset.get_datasets()

    def features_length(self) -> int:
        """The number of arrays of the dataset."""
        return len(self.datasets)

    def extract_feature_by_slice(self, slice_index: slice, j: int):
        """``datasets[j][slice_index]`` (a view of the array)."""
        return self.datasets[j][slice_index]

    def extract_feature(self, i: int, j: int):
        """``datasets[j][i]``."""
        return self.datasets[j][i]
