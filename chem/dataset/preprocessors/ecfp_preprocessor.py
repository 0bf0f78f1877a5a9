"""ECFPPreprocessor: the Morgan (extended-connectivity) fingerprint of a molecule as a bit vector."""
import numpy
from rdkit.Chem import rdFingerprintGenerator

from kusari.chem.dataset.preprocessors.mol_preprocessor import MolPreprocessor

# RDKit's default fingerprint length, which Chainer Chemistry used
_FP_SIZE = 2048


class ECFPPreprocessor(MolPreprocessor):
    """Features for fingerprint MLPs: the 2048-bit Morgan fingerprint.

    Parameters
    ----------
    radius : int
        Radius of the circular atom environments (2 gives ECFP4).
    """

    def __init__(self, radius: int = 2):
        super().__init__()
        self.radius = radius
        self._generator = rdFingerprintGenerator.GetMorganGenerator(radius=radius, fpSize=_FP_SIZE)

    def get_input_features(self, mol) -> numpy.ndarray:
        """The fingerprint bits of ``mol``.

        Returns
        -------
        numpy.ndarray
            ``(2048,)`` float32 of 0 and 1.
        """
        return self._generator.GetFingerprintAsNumPy(mol).astype(numpy.float32)
