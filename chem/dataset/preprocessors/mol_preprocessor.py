"""MolPreprocessor: base class of the preprocessors that turn one RDKit molecule into input features."""
from rdkit import Chem

from kusari.chem.dataset.preprocessors.base_preprocessor import BasePreprocessor
from kusari.chem.datasets.numpy_tuple_dataset import NumpyTupleDataset


class MolPreprocessor(BasePreprocessor):
    """Preprocessor of RDKit molecules; subclasses define :meth:`get_input_features`.

    Parameters
    ----------
    add_Hs : bool
        Whether to make hydrogens explicit atoms.
    kekulize : bool
        Whether to kekulize the molecule (aromatic bonds become single and double bonds).
    """

    def __init__(self, add_Hs: bool = False, kekulize: bool = False):
        self.add_Hs = add_Hs
        self.kekulize = kekulize

    def prepare_smiles_and_mol(self, mol: Chem.Mol) -> tuple:
        """The canonical SMILES of ``mol`` and the molecule rebuilt from it, as the features see it.

        Stereochemistry is dropped (non-isomeric SMILES), so a molecule gives the same features
        however it was written; then hydrogens are added and the molecule kekulized if asked.

        Parameters
        ----------
        mol : rdkit.Chem.Mol
            The molecule as parsed.

        Returns
        -------
        tuple of (str, rdkit.Chem.Mol)
            ``(canonical_smiles, mol)``.
        """
        canonical_smiles = Chem.MolToSmiles(mol, isomericSmiles=False, canonical=True)
        mol = Chem.MolFromSmiles(canonical_smiles)
        if self.add_Hs:
            mol = Chem.AddHs(mol)
        if self.kekulize:
            Chem.Kekulize(mol)
        return canonical_smiles, mol

    def get_label(self, mol: Chem.Mol, label_names=None) -> list:
        """The values of ``mol``'s properties named ``label_names`` (e.g. the fields of an SDF record).

        Parameters
        ----------
        mol : rdkit.Chem.Mol
            The molecule.
        label_names : iterable of str or None
            Property names.

        Returns
        -------
        list
            One string per name, ``None`` where ``mol`` lacks the property; empty when
            ``label_names`` is None.
        """
        if label_names is None:
            return []
        return [mol.GetProp(name) if mol.HasProp(name) else None for name in label_names]

    def get_input_features(self, mol: Chem.Mol):
        """The features of ``mol`` (prepared by :meth:`prepare_smiles_and_mol`): an array or a tuple of arrays."""
        raise NotImplementedError(f"{type(self).__name__}.get_input_features is not implemented")

    def create_dataset(self, *args, **kwargs) -> NumpyTupleDataset:
        """The dataset of the parsed features: one array per feature (and labels last).

        Parameters
        ----------
        *args : numpy.ndarray
            Per-feature arrays of length ``N`` (molecules).

        Returns
        -------
        NumpyTupleDataset
        """
        return NumpyTupleDataset(*args)
