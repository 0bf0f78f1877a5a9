"""Feature indexers: ``dataset.features[i, j]`` gives feature ``j`` of example(s) ``i`` as arrays."""
import numpy


class ExtractBySliceNotSupportedError(Exception):
    """Raised by ``extract_feature_by_slice`` when an indexer extracts only example by example."""


class BaseIndexer:
    """Base of indexers: objects that answer ``indexer[item]``."""

    def __getitem__(self, item):
        raise NotImplementedError(f"{type(self).__name__}.__getitem__ is not implemented")


def _is_bool_mask(index) -> bool:
    return isinstance(index[0], (bool, numpy.bool_))


class BaseFeatureIndexer(BaseIndexer):
    """Two-dimensional access to a dataset: axis 0 the examples, axis 1 the features.

    ``features[i, j]`` is feature ``j`` of example(s) ``i``; ``features[i]`` means
    ``features[i, :]``. ``i`` and ``j`` may be ints, slices, index lists or arrays, or boolean
    masks. One feature gives one array (``N_i`` examples stacked; a 1-D object array when their
    shapes differ), several a tuple of them. Subclasses define :meth:`features_length` and
    :meth:`extract_feature`, and may define :meth:`extract_feature_by_slice` for speed.

    Parameters
    ----------
    dataset
        The dataset indexed.
    """

    def __init__(self, dataset):
        self.dataset = dataset

    def features_length(self) -> int:
        """The number of features of each example."""
        raise NotImplementedError(f"{type(self).__name__}.features_length is not implemented")

    @property
    def dataset_length(self) -> int:
        """The number of examples."""
        return len(self.dataset)

    @property
    def shape(self) -> tuple:
        """``(dataset_length, features_length)``."""
        return self.dataset_length, self.features_length()

    def extract_feature_by_slice(self, slice_index: slice, j: int):
        """Feature ``j`` of the examples ``slice_index``, in one go.

        The default raises :class:`ExtractBySliceNotSupportedError`, and the examples are then
        taken one by one with :meth:`extract_feature`.

        Returns
        -------
        numpy.ndarray
            ``(N_slice, ...)``.
        """
        raise ExtractBySliceNotSupportedError

    def extract_feature(self, i: int, j: int):
        """Feature ``j`` of example ``i``."""
        raise NotImplementedError(f"{type(self).__name__}.extract_feature is not implemented")

    def create_feature_index_list(self, feature_index) -> list:
        """The feature positions that ``feature_index`` (int, slice, list, array or mask) selects.

        Returns
        -------
        list or numpy.ndarray
            Integer feature positions.
        """
        if isinstance(feature_index, slice):
            return numpy.arange(*feature_index.indices(self.features_length()))
        if isinstance(feature_index, (list, numpy.ndarray)):
            if len(feature_index) and _is_bool_mask(feature_index):
                if len(feature_index) != self.features_length():
                    raise ValueError(
                        f"{type(self).__name__}: the feature mask has length {len(feature_index)} "
                        f"but there are {self.features_length()} features")
                return numpy.argwhere(feature_index).ravel()
            return feature_index
        return [feature_index]

    def preprocess(self, item) -> None:
        """Hook called with the index before each access."""

    def postprocess(self, item) -> None:
        """Hook called with the index after each access."""

    def __getitem__(self, item):
        self.preprocess(item)
        feature_index = slice(None)
        if isinstance(item, tuple):
            if len(item) == 1:
                data_index, = item
            elif len(item) == 2:
                data_index, feature_index = item
            else:
                raise IndexError(f"{type(self).__name__}: too many indices for features "
                                 f"({len(item)}; at most 2: examples, features)")
        else:
            data_index = item
        feature_index_list = self.create_feature_index_list(feature_index)
        # subclasses' postprocess may depend on whether one feature or a tuple was returned
        self._extract_single_feature = len(feature_index_list) == 1
        if self._extract_single_feature:
            result = self._extract_feature(data_index, feature_index_list[0])
        else:
            result = tuple(self._extract_feature(data_index, j) for j in feature_index_list)
        self.postprocess(item)
        return result

    def check_type_feature_index(self, j: int) -> None:
        """Raise IndexError when there is no feature ``j``."""
        if j >= self.features_length():
            raise IndexError(f"{type(self).__name__}: feature index {j} is out of bounds for "
                             f"{self.features_length()} features")

    def _extract_feature(self, data_index, j):
        self.check_type_feature_index(j)
        if isinstance(data_index, slice):
            try:
                return self.extract_feature_by_slice(data_index, j)
            except ExtractBySliceNotSupportedError:
                values = [self.extract_feature(i, j)
                          for i in range(*data_index.indices(self.dataset_length))]
        elif isinstance(data_index, (list, numpy.ndarray)):
            if len(data_index) == 0:
                try:
                    # an empty slice gives an empty array of the feature's dtype and shape
                    return self.extract_feature_by_slice(slice(0, 0, 1), j)
                except ExtractBySliceNotSupportedError:
                    values = []
            else:
                if _is_bool_mask(data_index):
                    if len(data_index) != self.dataset_length:
                        raise ValueError(
                            f"{type(self).__name__}: the example mask has length {len(data_index)} "
                            f"but there are {self.dataset_length} examples")
                    data_index = numpy.argwhere(data_index).ravel()
                values = [self.extract_feature(i, j) for i in data_index]
        else:
            return self.extract_feature(data_index, j)
        try:
            return numpy.asarray(values)
        except ValueError:
            # values of different shapes: NumPy 2 no longer builds ragged arrays implicitly
            feature = numpy.empty(len(values), dtype=object)
            feature[:] = values
            return feature
