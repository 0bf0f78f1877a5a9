"""StratifiedSplitter: every class (or label quantile bin) keeps its share in each part."""
import numpy
import pandas

from kusari.chem.dataset.splitters.base_splitter import BaseSplitter, as_index_array

_TASK_TYPES = ("classification", "regression", "auto")


def _approximate_mode(class_counts: numpy.ndarray, n_draws: int) -> numpy.ndarray:
    """How many of ``n_draws`` each class gets, proportional to ``class_counts`` (C,); (C,) int64.

    Floors the proportional shares, then gives the leftover draws to the classes with the
    largest fractional parts (scikit-learn's ``_approximate_mode`` rule, as Chainer Chemistry).
    """
    continuous = class_counts * n_draws / class_counts.sum()
    floored = numpy.floor(continuous)
    n_remainder = int(n_draws - floored.sum())
    # Chainer Chemistry sorts with NumPy 1's default argsort, which for the few classes met here
    # (fewer than 17) is an insertion sort: stable. A stable sort keeps its tie order.
    order = numpy.argsort(continuous - floored, kind="stable")[::-1]
    floored[order[:n_remainder]] += 1
    return floored.astype(numpy.int64)


class StratifiedSplitter(BaseSplitter):
    """Stratified split: classification labels by class, regression labels by ``n_bin``
    quantile bins (``pandas.qcut``); within each class a seeded permutation picks the parts."""

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, labels=None,
               **kwargs):
        self._check_fractions(frac_train, frac_valid, frac_test)
        seed = kwargs.get("seed")
        label_axis = kwargs.get("label_axis", -1)
        task_index = kwargs.get("task_index", 0)
        n_bin = kwargs.get("n_bin", 10)
        task_type = kwargs.get("task_type", "auto")
        if task_type not in _TASK_TYPES:
            raise ValueError(f"StratifiedSplitter: task_type must be one of {_TASK_TYPES}, "
                             f"got {task_type!r}")
        rng = numpy.random.RandomState(seed)

        labels = self._labels(dataset, labels, label_axis, task_index)
        if task_type == "auto":
            if labels.dtype.kind == "i":
                task_type = "classification"
            elif labels.dtype.kind == "f":
                task_type = "regression"
            else:
                raise ValueError(f"StratifiedSplitter: task_type='auto' needs signed integer "
                                 f"(classification) or float (regression) labels, got dtype "
                                 f"{labels.dtype}; pass task_type")
        if task_type == "classification":
            _, labels = numpy.unique(labels, return_inverse=True)
            labels = labels.reshape(-1)
        else:
            labels = pandas.qcut(labels, n_bin, labels=False)

        n_total_valid = int(numpy.floor(frac_valid * len(dataset)))
        n_total_test = int(numpy.floor(frac_test * len(dataset)))
        class_counts = numpy.bincount(labels)
        class_indices = numpy.split(numpy.argsort(labels, kind="mergesort"),
                                    numpy.cumsum(class_counts)[:-1])
        n_valid_samples = _approximate_mode(class_counts, n_total_valid)
        n_test_samples = _approximate_mode(class_counts - n_valid_samples, n_total_test)

        train, valid, test = [], [], []
        # one permutation per class, in class order: the same random calls as Chainer Chemistry
        for members, n_valid, n_test in zip(class_indices, n_valid_samples, n_test_samples):
            shuffled = members[rng.permutation(len(members))]
            valid.extend(shuffled[:n_valid])
            test.extend(shuffled[n_valid:n_valid + n_test])
            train.extend(shuffled[n_valid + n_test:])
        return as_index_array(train), as_index_array(valid), as_index_array(test)

    @staticmethod
    def _labels(dataset, labels, label_axis, task_index) -> numpy.ndarray:
        """The (N,) labels to stratify on: given, or column ``label_axis`` of a NumpyTupleDataset."""
        if labels is None:
            if not callable(getattr(dataset, "get_datasets", None)):
                raise ValueError(f"StratifiedSplitter: labels is None and the dataset "
                                 f"({type(dataset).__name__}) is not a NumpyTupleDataset; "
                                 "pass labels")
            labels = dataset.get_datasets()[label_axis]
        labels = numpy.asarray(labels)
        if labels.ndim != 1:
            labels = labels[:, task_index]
        if len(labels) != len(dataset):
            raise ValueError(f"StratifiedSplitter: {len(labels)} labels for a dataset of "
                             f"{len(dataset)} examples")
        return labels

    def train_valid_test_split(self, dataset, labels=None, label_axis: int = -1,
                               task_index: int = 0, frac_train: float = 0.8,
                               frac_valid: float = 0.1, frac_test: float = 0.1, converter=None,
                               return_index: bool = True, seed=None, task_type: str = "auto",
                               n_bin: int = 10, **kwargs):
        """Stratified train / valid / test split.

        Parameters
        ----------
        dataset : NumpyTupleDataset, numpy.ndarray or any indexable of length N
        labels : array of shape (N,) or (N, T), list, or None
            Labels to stratify on; None takes array ``label_axis`` of a NumpyTupleDataset.
        label_axis : int
            Which array of the NumpyTupleDataset holds the labels.
        task_index : int
            Which column of 2-D labels to use.
        frac_train, frac_valid, frac_test : float
            Fractions summing to 1; valid and test get ``floor(frac * N)`` examples.
        converter, return_index
            See :meth:`BaseSplitter.train_valid_test_split`.
        seed : int or None
            Seed of the ``numpy.random.RandomState`` shuffling each class.
        task_type : {'auto', 'classification', 'regression'}
            'auto' picks classification for integer labels and regression for float labels.
        n_bin : int
            Number of quantile bins for regression labels.

        Returns
        -------
        tuple
            ``(train, valid, test)`` index arrays, grouped by class, or the parts.
        """
        return super().train_valid_test_split(dataset, frac_train, frac_valid, frac_test,
                                              converter, return_index, seed=seed,
                                              label_axis=label_axis, task_type=task_type,
                                              task_index=task_index, n_bin=n_bin,
                                              labels=labels, **kwargs)

    def train_valid_split(self, dataset, labels=None, label_axis: int = -1, task_index: int = 0,
                          frac_train: float = 0.9, frac_valid: float = 0.1, converter=None,
                          return_index: bool = True, seed=None, task_type: str = "auto",
                          n_bin: int = 10, **kwargs):
        """Stratified train / valid split (see :meth:`train_valid_test_split`).

        Returns
        -------
        tuple
            ``(train, valid)`` index arrays, or the parts.
        """
        return super().train_valid_split(dataset, frac_train, frac_valid, converter,
                                         return_index, seed=seed, label_axis=label_axis,
                                         task_type=task_type, task_index=task_index,
                                         n_bin=n_bin, labels=labels, **kwargs)
