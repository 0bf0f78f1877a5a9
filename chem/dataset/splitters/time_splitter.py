"""TimeSplitter: the oldest examples train, the newest test."""
from kusari.chem.dataset.splitters.base_splitter import BaseSplitter, as_index_array


class TimeSplitter(BaseSplitter):
    """Split in the order of ``time_list`` (ties keep their dataset order)."""

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
        self._check_fractions(frac_train, frac_valid, frac_test)
        time_list = kwargs.get("time_list")
        if time_list is None:
            raise ValueError("TimeSplitter: time_list is required (one time per example)")
        n = len(dataset)
        if len(time_list) < n:
            raise ValueError(f"TimeSplitter: time_list has {len(time_list)} entries but the "
                             f"dataset has {n} examples")
        train_cutoff = int(frac_train * n)
        valid_cutoff = int((frac_train + frac_valid) * n)
        # sorted() is stable, so equal times keep their dataset order
        order = sorted(range(len(time_list)), key=lambda i: time_list[i])[:n]
        return (as_index_array(order[:train_cutoff]),
                as_index_array(order[train_cutoff:valid_cutoff]),
                as_index_array(order[valid_cutoff:]))

    def train_valid_test_split(self, dataset, time_list=None, frac_train: float = 0.8,
                               frac_valid: float = 0.1, frac_test: float = 0.1, converter=None,
                               return_index: bool = True, **kwargs):
        """Split by time: the first ``int(frac_train * N)`` examples in time order train, up to
        ``int((frac_train + frac_valid) * N)`` validate, the rest test.

        Parameters
        ----------
        dataset : NumpyTupleDataset, numpy.ndarray or any indexable of length N
        time_list : sequence of length N
            A sortable time (number, date, ...) per example.
        frac_train, frac_valid, frac_test : float
            Fractions summing to 1.
        converter, return_index
            See :meth:`BaseSplitter.train_valid_test_split`.

        Returns
        -------
        tuple
            ``(train, valid, test)`` index arrays, each in time order, or the parts.
        """
        return super().train_valid_test_split(dataset, frac_train, frac_valid, frac_test,
                                              converter, return_index, time_list=time_list,
                                              **kwargs)

    def train_valid_split(self, dataset, time_list=None, frac_train: float = 0.9,
                          frac_valid: float = 0.1, converter=None, return_index: bool = True,
                          **kwargs):
        """Split by time into train and valid parts (see :meth:`train_valid_test_split`).

        Returns
        -------
        tuple
            ``(train, valid)`` index arrays, each in time order, or the parts.
        """
        return super().train_valid_split(dataset, frac_train, frac_valid, converter,
                                         return_index, time_list=time_list, **kwargs)
