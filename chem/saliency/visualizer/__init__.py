"""Saliency visualizers: molecules (RDKit, SVG/PNG), tables and images (matplotlib), and their color scalers."""
from kusari.chem.saliency.visualizer import base_visualizer, image_visualizer, mol_visualizer  # NOQA
from kusari.chem.saliency.visualizer import table_visualizer, visualizer_utils  # NOQA

from kusari.chem.saliency.visualizer.base_visualizer import BaseVisualizer  # NOQA
from kusari.chem.saliency.visualizer.image_visualizer import ImageVisualizer  # NOQA
from kusari.chem.saliency.visualizer.mol_visualizer import MolVisualizer, SmilesVisualizer  # NOQA
from kusari.chem.saliency.visualizer.table_visualizer import TableVisualizer  # NOQA

from kusari.chem.saliency.visualizer.visualizer_utils import abs_max_scaler, min_max_scaler  # NOQA
from kusari.chem.saliency.visualizer.visualizer_utils import normalize_scaler, red_blue_cmap  # NOQA
