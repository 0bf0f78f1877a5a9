"""DeepChemScaffoldSplitter: DeepChem's deterministic scaffold split, largest scaffold groups first."""
from kusari.chem.dataset.splitters.base_splitter import BaseSplitter, as_index_array
from kusari.chem.dataset.splitters.scaffold_splitter import generate_scaffold, scaffold_groups

__all__ = ["DeepChemScaffoldSplitter", "generate_scaffold"]


class DeepChemScaffoldSplitter(BaseSplitter):
    """DeepChem's scaffold split: groups sorted by size (then by first index), largest first,
    fill train up to ``frac_train * N``, then valid up to ``(frac_train + frac_valid) * N``,
    then test. ``seed`` is accepted and unused: the split is deterministic."""

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
        self._check_fractions(frac_train, frac_valid, frac_test)
        groups = scaffold_groups(dataset, kwargs.get("smiles_list"),
                                 kwargs.get("include_chirality", False),
                                 "DeepChemScaffoldSplitter")
        groups.sort(key=lambda group: (len(group), group[0]), reverse=True)
        train_cutoff = frac_train * len(dataset)
        valid_cutoff = (frac_train + frac_valid) * len(dataset)
        train, valid, test = [], [], []
        for group in groups:
            if len(train) + len(group) <= train_cutoff:
                train.extend(group)
            elif len(train) + len(valid) + len(group) <= valid_cutoff:
                valid.extend(group)
            else:
                test.extend(group)
        return as_index_array(train), as_index_array(valid), as_index_array(test)

    def train_valid_test_split(self, dataset, smiles_list, frac_train: float = 0.8,
                               frac_valid: float = 0.1, frac_test: float = 0.1, converter=None,
                               return_index: bool = True, seed=None,
                               include_chirality: bool = False, **kwargs):
        """DeepChem scaffold train / valid / test split.

        Parameters
        ----------
        dataset : NumpyTupleDataset, numpy.ndarray or any indexable of length N
        smiles_list : sequence of str, length N
            The SMILES of each example.
        frac_train, frac_valid, frac_test : float
            Fractions summing to 1.
        converter, return_index
            See :meth:`BaseSplitter.train_valid_test_split`.
        seed : int or None
            Unused (kept for the common signature).
        include_chirality : bool
            Keep stereochemistry in the scaffolds.

        Returns
        -------
        tuple
            ``(train, valid, test)`` index arrays, or the parts.
        """
        return super().train_valid_test_split(dataset, frac_train, frac_valid, frac_test,
                                              converter, return_index, seed=seed,
                                              smiles_list=smiles_list,
                                              include_chirality=include_chirality, **kwargs)

    def train_valid_split(self, dataset, smiles_list, frac_train: float = 0.9,
                          frac_valid: float = 0.1, converter=None, return_index: bool = True,
                          seed=None, include_chirality: bool = False, **kwargs):
        """DeepChem scaffold train / valid split (see :meth:`train_valid_test_split`).

        Returns
        -------
        tuple
            ``(train, valid)`` index arrays, or the parts.
        """
        return super().train_valid_split(dataset, frac_train, frac_valid, converter,
                                         return_index, seed=seed, smiles_list=smiles_list,
                                         include_chirality=include_chirality, **kwargs)
