"""MolVisualizer and SmilesVisualizer: a molecule drawn by RDKit with its atoms and bonds colored by saliency."""
from logging import getLogger

import numpy
from kusari.chem.saliency.visualizer.base_visualizer import BaseVisualizer
from kusari.chem.saliency.visualizer.visualizer_utils import (
    abs_max_scaler,
    red_blue_cmap,
)
from kusari.utils.atomic_write import atomic_path
from rdkit import Chem
from rdkit.Chem import rdDepictor
from rdkit.Chem.Draw import rdMolDraw2D

_WIDTH, _HEIGHT = 500, 375


def is_visible(begin: float, end: float) -> float:
    """The saliency a bond is colored with, from those of its two atoms.

    0 when either atom is at or below 0, 1 when either is at or above 1, else their mean.
    """
    if begin <= 0 or end <= 0:
        return 0
    if begin >= 1 or end >= 1:
        return 1
    return (begin + end) * 0.5


def _draw(drawer, mol, highlight: dict) -> None:
    drawer.DrawMolecule(mol, **highlight)
    drawer.FinishDrawing()


def _write_png(path: str, mol, highlight: dict) -> None:
    # RDKit's Cairo drawer makes the PNG itself (Chainer Chemistry converts its SVG with cairosvg)
    drawer = rdMolDraw2D.MolDraw2DCairo(_WIDTH, _HEIGHT)
    _draw(drawer, mol, highlight)
    with atomic_path(path) as tmp:
        drawer.WriteDrawingText(tmp)


class MolVisualizer(BaseVisualizer):
    """Draw a molecule with atoms colored by their saliency (bonds by their atoms').

    Parameters
    ----------
    logger : logging.Logger or None
    """

    def __init__(self, logger=None):
        self.logger = logger or getLogger(__name__)

    def visualize(self, saliency: numpy.ndarray, mol, save_filepath=None, visualize_ratio: float = 1.0,
                  color_fn=red_blue_cmap, scaler=abs_max_scaler, legend: str = "",
                  raise_import_error: bool = False) -> str:
        """The SVG of ``mol`` with its saliency colors; also written to ``save_filepath`` when given.

        Parameters
        ----------
        saliency : numpy.ndarray, (n_atoms_padded,)
            One value per atom (entries past the molecule's atoms are dropped).
        mol : rdkit.Chem.Mol
            The molecule (not modified).
        save_filepath : str or None
            A ``.svg`` or ``.png`` file to write.
        visualize_ratio : float
            Below 1, only the top ``int(n_atoms * visualize_ratio) + 1`` atoms by absolute saliency
            are colored; the rest are set to 0.
        color_fn : callable
            Scaled saliency -> RGB tuple.
        scaler : callable or None
            Applied to the saliency first (to [-1, 1] by default).
        legend : str
            Text under the drawing.
        raise_import_error : bool
            Kept for Chainer Chemistry's signature: PNG needs no extra package here.

        Returns
        -------
        str
            The SVG text.
        """
        saliency = numpy.asarray(saliency)
        if saliency.ndim != 1:
            raise ValueError(f"MolVisualizer.visualize: saliency must be 1-D (one value per atom), got shape "
                             f"{saliency.shape}")
        mol = Chem.Mol(mol)
        rdDepictor.Compute2DCoords(mol)
        Chem.SanitizeMol(mol)
        Chem.Kekulize(mol)
        num_atoms = mol.GetNumAtoms()
        if saliency.shape[0] < num_atoms:
            raise ValueError(f"MolVisualizer.visualize: saliency has {saliency.shape[0]} values for a molecule "
                             f"of {num_atoms} atoms")
        saliency = saliency[:num_atoms]
        if scaler is not None:
            saliency = scaler(saliency)

        if visualize_ratio < 1.0:
            abs_saliency = numpy.abs(saliency)
            order = numpy.argsort(abs_saliency)[::-1]
            threshold = abs_saliency[order[int(num_atoms * visualize_ratio)]]
            saliency = numpy.where(abs_saliency < threshold, 0., saliency)
            highlight_atoms = [int(i) for i in numpy.flatnonzero(abs_saliency >= threshold)]
        else:
            highlight_atoms = list(range(num_atoms))

        bonds = list(mol.GetBonds())
        highlight = {
            "highlightAtoms": highlight_atoms,
            "highlightAtomColors": {i: color_fn(s) for i, s in enumerate(saliency)},
            "highlightBonds": [bond.GetIdx() for bond in bonds],
            "highlightBondColors": {
                i: color_fn(is_visible(saliency[bond.GetBeginAtomIdx()], saliency[bond.GetEndAtomIdx()]))
                for i, bond in enumerate(bonds)},
            "legend": legend}
        drawer = rdMolDraw2D.MolDraw2DSVG(_WIDTH, _HEIGHT)
        _draw(drawer, mol, highlight)
        svg = drawer.GetDrawingText()
        if save_filepath:
            extension = str(save_filepath).rsplit(".", 1)[-1]
            if extension == "svg":
                with atomic_path(save_filepath) as tmp, open(tmp, "w") as f:
                    f.write(svg)
            elif extension == "png":
                _write_png(save_filepath, mol, highlight)
            else:
                raise ValueError(f"MolVisualizer.visualize: save_filepath must end in .svg or .png, got "
                                 f"{save_filepath!r}")
        return svg


class SmilesVisualizer(MolVisualizer):
    """:class:`MolVisualizer` for a molecule given as SMILES."""

    def visualize(self, saliency: numpy.ndarray, smiles: str, save_filepath=None, visualize_ratio: float = 1.0,
                  color_fn=red_blue_cmap, scaler=abs_max_scaler, legend: str = "", add_Hs: bool = False,
                  use_canonical_smiles: bool = True, raise_import_error: bool = False) -> str:
        """The SVG of the molecule ``smiles`` with its saliency colors (see :meth:`MolVisualizer.visualize`).

        Parameters
        ----------
        saliency : numpy.ndarray, (n_atoms_padded,)
            One value per atom, in the order of the canonical SMILES when ``use_canonical_smiles``.
        smiles : str
        add_Hs : bool
            Add explicit hydrogens (their saliency follows the heavy atoms').
        use_canonical_smiles : bool
            Renumber the atoms as RDKit's canonical SMILES does (as the preprocessors do).
        save_filepath, visualize_ratio, color_fn, scaler, legend, raise_import_error
            As for :meth:`MolVisualizer.visualize`.

        Returns
        -------
        str
            The SVG text.
        """
        mol = Chem.MolFromSmiles(smiles)
        if mol is None:
            raise ValueError(f"SmilesVisualizer.visualize: RDKit cannot parse smiles {smiles!r}")
        if use_canonical_smiles:
            mol = Chem.MolFromSmiles(Chem.MolToSmiles(mol, canonical=True))
        if add_Hs:
            mol = Chem.AddHs(mol)
        return super().visualize(saliency, mol, save_filepath=save_filepath, visualize_ratio=visualize_ratio,
                                 color_fn=color_fn, scaler=scaler, legend=legend,
                                 raise_import_error=raise_import_error)
