"""ScaffoldSplitter: molecules sharing a Bemis-Murcko scaffold land in the same part."""
from collections import defaultdict

import numpy
from rdkit import Chem
from rdkit.Chem.Scaffolds import MurckoScaffold

from kusari.chem.dataset.splitters.base_splitter import BaseSplitter, as_index_array


def generate_scaffold(smiles: str, include_chirality: bool = False) -> str:
    """The Bemis-Murcko scaffold of a molecule, as RDKit's canonical SMILES.

    Parameters
    ----------
    smiles : str
        The molecule.
    include_chirality : bool
        Keep stereochemistry in the scaffold.

    Returns
    -------
    str
        The scaffold SMILES; ``''`` for a molecule without rings.
    """
    mol = Chem.MolFromSmiles(smiles)
    if mol is None:
        raise ValueError(f"generate_scaffold: RDKit cannot parse the SMILES {smiles!r}")
    return MurckoScaffold.MurckoScaffoldSmiles(mol=mol, includeChirality=include_chirality)


def scaffold_groups(dataset, smiles_list, include_chirality: bool, caller: str) -> list:
    """Example indices grouped by scaffold, groups in order of first appearance.

    Parameters
    ----------
    dataset : sized
        The dataset, of length N.
    smiles_list : sequence of str, length N
        The SMILES of each example.
    include_chirality : bool
        Keep stereochemistry in the scaffolds.
    caller : str
        Name used in error messages.

    Returns
    -------
    list of list of int
        One ascending list of indices per distinct scaffold.
    """
    if smiles_list is None:
        raise ValueError(f"{caller}: smiles_list is required (one SMILES per example)")
    if len(dataset) != len(smiles_list):
        raise ValueError(f"{caller}: the dataset has {len(dataset)} examples but smiles_list "
                         f"has {len(smiles_list)}")
    groups = defaultdict(list)
    for index, smiles in enumerate(smiles_list):
        try:
            scaffold = generate_scaffold(smiles, include_chirality)
        except ValueError as e:
            raise ValueError(f"{caller}: smiles_list[{index}]: {e}") from None
        groups[scaffold].append(index)
    return list(groups.values())


class ScaffoldSplitter(BaseSplitter):
    """Scaffold split: the scaffold groups, in a seeded random order, fill valid, then test,
    each while the group fits; every other group goes to train.

    Valid and test hold at most ``floor(frac * N)`` examples each.
    """

    def _split(self, dataset, frac_train=0.8, frac_valid=0.1, frac_test=0.1, **kwargs):
        self._check_fractions(frac_train, frac_valid, frac_test)
        rng = numpy.random.RandomState(kwargs.get("seed"))
        groups = scaffold_groups(dataset, kwargs.get("smiles_list"),
                                 kwargs.get("include_chirality", False), "ScaffoldSplitter")
        # Chainer Chemistry permutes the array of groups; shuffling draws the same numbers
        # whatever the items are, so permuting their positions gives the same order.
        groups = [groups[i] for i in rng.permutation(len(groups))]

        n_total_valid = int(numpy.floor(frac_valid * len(dataset)))
        n_total_test = int(numpy.floor(frac_test * len(dataset)))
        train, valid, test = [], [], []
        for group in groups:
            if len(valid) + len(group) <= n_total_valid:
                valid.extend(group)
            elif len(test) + len(group) <= n_total_test:
                test.extend(group)
            else:
                train.extend(group)
        return as_index_array(train), as_index_array(valid), as_index_array(test)

    def train_valid_test_split(self, dataset, smiles_list, frac_train: float = 0.8,
                               frac_valid: float = 0.1, frac_test: float = 0.1, converter=None,
                               return_index: bool = True, seed=None,
                               include_chirality: bool = False, **kwargs):
        """Scaffold train / valid / test split.

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
            Seed of the ``numpy.random.RandomState`` ordering the scaffold groups.
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
        """Scaffold train / valid split (see :meth:`train_valid_test_split`).

        Returns
        -------
        tuple
            ``(train, valid)`` index arrays, or the parts.
        """
        return super().train_valid_split(dataset, frac_train, frac_valid, converter,
                                         return_index, seed=seed, smiles_list=smiles_list,
                                         include_chirality=include_chirality, **kwargs)
