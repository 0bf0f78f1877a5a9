"""RandomSplitter: a seeded random permutation cut into train / valid / test."""
import numpy

from kusari.chem.dataset.splitters.base_splitter import BaseSplitter


class RandomSplitter(BaseSplitter):
    """Random split; with a seed it draws ``numpy.random.RandomState(seed).permutation(N)``,
    so the indices equal Chainer Chemistry's for the same seed."""

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
        self._check_fractions(frac_train, frac_valid, frac_test)
        seed = kwargs.get("seed")
        n = len(dataset)
        if seed is None:
            perm = numpy.random.permutation(n)
        else:
            perm = numpy.random.RandomState(seed).permutation(n)
        n_train = int(n * frac_train)
        n_valid = int(n * frac_valid)
        return perm[:n_train], perm[n_train:n_train + n_valid], perm[n_train + n_valid:]

    def train_valid_test_split(self, dataset, frac_train: float = 0.8, frac_valid: float = 0.1,
                               frac_test: float = 0.1, converter=None, return_index: bool = True,
                               seed=None, **kwargs):
        """Random train / valid / test split.

        The first ``int(N * frac_train)`` entries of the permutation are the train part, the next
        ``int(N * frac_valid)`` the valid part and the rest the test part.

        Parameters
        ----------
        dataset : NumpyTupleDataset, numpy.ndarray or any indexable of length N
        frac_train, frac_valid, frac_test : float
            Fractions summing to 1.
        converter, return_index
            See :meth:`BaseSplitter.train_valid_test_split`.
        seed : int or None
            Seed of ``numpy.random.RandomState``; None draws from NumPy's global generator.

        Returns
        -------
        tuple
            ``(train, valid, test)`` index arrays of shapes ``(N_train,)``, ``(N_valid,)``,
            ``(N_test,)``, or the parts.
        """
        return super().train_valid_test_split(dataset, frac_train, frac_valid, frac_test,
                                              converter, return_index, seed=seed, **kwargs)

    def train_valid_split(self, dataset, frac_train: float = 0.9, frac_valid: float = 0.1,
                          converter=None, return_index: bool = True, seed=None, **kwargs):
        """Random train / valid split (see :meth:`train_valid_test_split`).

        Returns
        -------
        tuple
            ``(train, valid)`` index arrays of shapes ``(N_train,)``, ``(N_valid,)``, or the parts.
        """
        return super().train_valid_split(dataset, frac_train, frac_valid, converter,
                                         return_index, seed=seed, **kwargs)
