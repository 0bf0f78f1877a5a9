"""MolVisualizer / SmilesVisualizer: real SVG and PNG files whose colors follow the saliency's signs."""
import xml.etree.ElementTree as ET

import numpy
import pytest

pytest.importorskip("rdkit")
from kusari.chem.saliency.visualizer import (
    MolVisualizer,
    SmilesVisualizer,
    red_blue_cmap,
)
from kusari.chem.saliency.visualizer.mol_visualizer import is_visible
from rdkit import Chem

SVG_NS = "{http://www.w3.org/2000/svg}"
RED, BLUE, WHITE = "#FF0000", "#0000FF", "#FFFFFF"


def hex_color(rgb):
    return "#" + "".join(f"{int(c * 255):02X}" for c in rgb)  # RDKit truncates


def atom_fills(svg: str) -> dict:
    """Atom index -> fill color of its highlight ellipse."""
    fills = {}
    for ellipse in ET.fromstring(svg.encode()).iter(SVG_NS + "ellipse"):
        style = dict(item.split(":") for item in ellipse.get("style").split(";") if item)
        fills[int(ellipse.get("class").split("-")[1])] = style["fill"], (float(ellipse.get("cx")),
                                                                         float(ellipse.get("cy")))
    return fills


def bond_fills(svg: str) -> dict:
    fills = {}
    for path in ET.fromstring(svg.encode()).iter(SVG_NS + "path"):
        cls, style = path.get("class") or "", path.get("style") or ""
        if cls.startswith("bond-") and "fill:#" in style:
            fills[int(cls.split()[0].split("-")[1])] = style.split("fill:")[1][:7]
    return fills


def test_svg_colors_follow_the_signs(tmp_path):
    # ethanol CCO: atom 0 positive, atom 1 half, atom 2 (O) negative
    path = tmp_path / "ethanol.svg"
    svg = SmilesVisualizer().visualize(numpy.array([2.0, 1.0, -2.0, 7.0], numpy.float32), "CCO",
                                       save_filepath=str(path))
    assert path.read_text() == svg
    fills = atom_fills(svg)
    assert fills[0][0] == RED and fills[2][0] == BLUE and fills[1][0] == hex_color(red_blue_cmap(0.5))
    # bond 0-1: both atoms positive, one at 1 -> red; bond 1-2: one negative -> white
    assert bond_fills(svg) == {0: RED, 1: WHITE}

    flipped = atom_fills(SmilesVisualizer().visualize(numpy.array([-2.0, -1.0, 2.0]), "CCO"))
    assert flipped[0][0] == BLUE and flipped[2][0] == RED


def test_png_file(tmp_path):
    Image = pytest.importorskip("PIL.Image")
    saliency = numpy.array([1.0, 0.0, -1.0])
    path = tmp_path / "ethanol.png"
    svg = SmilesVisualizer().visualize(saliency, "CCO", save_filepath=str(path))
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    image = numpy.asarray(Image.open(path).convert("RGB")).astype(int)
    fills = atom_fills(svg)  # the PNG has the SVG's layout

    def count_near(atom, rgb):
        x, y = (round(v) for v in fills[atom][1])
        return numpy.all(image[y - 20:y + 20, x - 20:x + 20] == rgb, axis=-1).sum()

    assert count_near(0, (255, 0, 0)) > 400 and count_near(0, (0, 0, 255)) == 0
    assert count_near(2, (0, 0, 255)) > 400 and count_near(2, (255, 0, 0)) == 0

    path_all_positive = tmp_path / "positive.png"
    SmilesVisualizer().visualize(numpy.abs(saliency), "CCO", save_filepath=str(path_all_positive))
    positive = numpy.asarray(Image.open(path_all_positive).convert("RGB")).astype(int)
    assert not numpy.all(positive == (0, 0, 255), axis=-1).any()


def test_visualize_ratio_keeps_the_top_atoms():
    # propanol CCCO: top int(4 * 0.25) + 1 = 2 atoms by |saliency| keep their color, the rest are white
    svg = SmilesVisualizer().visualize(numpy.array([0.1, -1.0, 0.2, 0.8]), "CCCO", visualize_ratio=0.25)
    fills = atom_fills(svg)
    assert sorted(fills) == [1, 3]
    assert fills[1][0] == BLUE


def test_mol_is_not_modified_and_bad_inputs():
    mol = Chem.MolFromSmiles("c1ccccc1")
    MolVisualizer().visualize(numpy.ones(6), mol)
    assert mol.GetNumConformers() == 0
    with pytest.raises(ValueError, match="1-D"):
        MolVisualizer().visualize(numpy.ones((6, 1)), mol)
    with pytest.raises(ValueError, match="6 atoms"):
        MolVisualizer().visualize(numpy.ones(5), mol)
    with pytest.raises(ValueError, match=".svg or .png"):
        MolVisualizer().visualize(numpy.ones(6), mol, save_filepath="benzene.jpg")
    with pytest.raises(ValueError, match="cannot parse"):
        SmilesVisualizer().visualize(numpy.ones(3), "C1CC")


def test_is_visible():
    assert is_visible(0.5, -0.1) == 0 and is_visible(1.0, 0.2) == 1 and is_visible(0.2, 0.4) == pytest.approx(0.3)
