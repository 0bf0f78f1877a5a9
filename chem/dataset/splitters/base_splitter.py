"""BaseSplitter: the interface every dataset splitter implements (Chainer Chemistry's base_splitter)."""
import numpy


def converter_default(dataset, indices: numpy.ndarray):
    """Index ``dataset`` with an index array: ``dataset[indices]``."""
    return dataset[indices]


def converter_numpy_tuple_dataset(dataset, indices: numpy.ndarray):
    """Rebuild a NumpyTupleDataset from the rows ``indices`` of each of its arrays."""
    return type(dataset)(*[array[indices] for array in dataset.get_datasets()])


def _default_converter(dataset):
    # Recognized by its get_datasets() method rather than by importing NumpyTupleDataset, so that
    # subclasses work too and kusari.chem.datasets stays free to import the dataset package.
    if callable(getattr(dataset, "get_datasets", None)):
        return converter_numpy_tuple_dataset
    return converter_default


def as_index_array(indices) -> numpy.ndarray:
    """A list of row numbers as an integer array (an empty split too, never float64)."""
    return numpy.asarray(indices, dtype=numpy.intp)


class BaseSplitter:
    """Splits a dataset into train / valid (/ test) parts; subclasses implement ``_split``.

    ``_split(dataset, frac_train, frac_valid, frac_test, **kwargs)`` returns three index arrays.
    """

    def k_fold_split(self, dataset, k: int):
        raise NotImplementedError(f"{type(self).__name__}.k_fold_split is not implemented "
                                  "(Chainer Chemistry 0.7.1 implements it for no splitter)")

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must implement _split")

    def _check_fractions(self, frac_train: float, frac_valid: float, frac_test: float) -> None:
        # Same tolerance as numpy.testing.assert_almost_equal(..., 1.), which Chainer Chemistry uses.
        total = frac_train + frac_valid + frac_test
        if not abs(total - 1.0) < 1.5e-7:
            raise ValueError(f"{type(self).__name__}: frac_train + frac_valid + frac_test must be 1, "
                             f"got {frac_train} + {frac_valid} + {frac_test} = {total}")

    def train_valid_test_split(self, dataset, frac_train: float = 0.8, frac_valid: float = 0.1,
                               frac_test: float = 0.1, converter=None, return_index: bool = True,
                               **kwargs):
        """Split ``dataset`` into train, valid and test parts.

        Parameters
        ----------
        dataset : NumpyTupleDataset, numpy.ndarray or any indexable of length N
        frac_train, frac_valid, frac_test : float
            Fractions of the N examples for each part; they must sum to 1.
        converter : callable or None
            ``converter(dataset, indices)`` builds a part; by default a NumpyTupleDataset is
            rebuilt from its rows and anything else is indexed with ``dataset[indices]``.
        return_index : bool
            True returns the index arrays, False the parts built by ``converter``.
        **kwargs
            Passed on to the splitter's ``_split`` (``seed``, ``smiles_list``, ...).

        Returns
        -------
        tuple
            ``(train, valid, test)``: integer index arrays of shapes ``(N_train,)``,
            ``(N_valid,)``, ``(N_test,)``, or the three parts.
        """
        if converter is None:
            converter = _default_converter(dataset)
        parts = self._split(dataset, frac_train, frac_valid, frac_test, **kwargs)
        if return_index:
            return parts
        return tuple(converter(dataset, indices) for indices in parts)

    def train_valid_split(self, dataset, frac_train: float = 0.9, frac_valid: float = 0.1,
                          converter=None, return_index: bool = True, **kwargs):
        """Split ``dataset`` into train and valid parts (``train_valid_test_split`` with no test).

        Parameters
        ----------
        dataset, converter, return_index, **kwargs
            As in :meth:`train_valid_test_split`.
        frac_train, frac_valid : float
            Fractions of the N examples for each part; they must sum to 1.

        Returns
        -------
        tuple
            ``(train, valid)``: integer index arrays of shapes ``(N_train,)``, ``(N_valid,)``,
            or the two parts.
        """
        train, valid, test = self._split(dataset, frac_train, frac_valid, 0.0, **kwargs)
        if len(test) != 0:
            raise ValueError(f"{type(self).__name__}.train_valid_split: {len(test)} examples fell "
                             "outside train and valid")
        if return_index:
            return train, valid
        if converter is None:
            converter = _default_converter(dataset)
        return converter(dataset, train), converter(dataset, valid)
