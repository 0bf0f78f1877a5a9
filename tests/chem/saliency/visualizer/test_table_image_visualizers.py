"""TableVisualizer and ImageVisualizer write real image files (matplotlib, no display)."""
import xml.etree.ElementTree as ET

import numpy
import pytest

pytest.importorskip("matplotlib")
import matplotlib

matplotlib.use("Agg")

from kusari.chem.saliency.visualizer import (
    BaseVisualizer,
    ImageVisualizer,
    TableVisualizer,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def bar_widths(svg_path) -> list:
    """Widths of the bars (patches with the default blue fill) of a saved TableVisualizer SVG, bottom first."""
    root = ET.parse(svg_path).getroot()
    bars = []
    for path in root.iter("{http://www.w3.org/2000/svg}path"):
        if "fill: #0000ff" in (path.get("style") or ""):
            xs = [float(v.split()[0]) for v in path.get("d").replace("M", "L").split("L")[1:] if v.strip()]
            ys = [float(v.split()[1]) for v in path.get("d").replace("M", "L").split("L")[1:] if v.strip()]
            bars.append((max(ys), max(xs) - min(xs)))
    return [width for _, width in sorted(bars, reverse=True)]


def test_table_png_and_svg(tmp_path):
    saliency = numpy.array([0.2, -0.5, 1.0, 0.1], numpy.float32)
    TableVisualizer().visualize(saliency, feature_names=list("abcd"), save_filepath=str(tmp_path / "t.png"))
    assert (tmp_path / "t.png").read_bytes()[:8] == PNG_MAGIC
    TableVisualizer().visualize(numpy.abs(saliency), save_filepath=str(tmp_path / "t.svg"), num_visualize=3)
    widths = numpy.array(bar_widths(tmp_path / "t.svg"))
    # 'descending' sorts ascending from the bottom bar, and num_visualize keeps the first (smallest) three,
    # scaled by the largest of all (1.0): 0.1, 0.2, 0.5 from the bottom, as upstream
    numpy.testing.assert_allclose(widths / widths[-1], [0.2, 0.4, 1.0], rtol=1e-3)


def test_table_argument_checks():
    with pytest.raises(ValueError, match="1-D"):
        TableVisualizer().visualize(numpy.ones((2, 2)))
    with pytest.raises(ValueError, match="feature_names"):
        TableVisualizer().visualize(numpy.ones(3), feature_names=["a"])
    with pytest.raises(ValueError, match="sort"):
        TableVisualizer().visualize(numpy.ones(3), sort="random")


def test_image_png(tmp_path):
    saliency = numpy.linspace(-1, 1, 3 * 8 * 8, dtype=numpy.float32).reshape(3, 8, 8)
    image = numpy.random.RandomState(0).randint(0, 255, (3, 8, 8)).astype(numpy.uint8)
    path = tmp_path / "image.png"
    ImageVisualizer().visualize(saliency[0], image=image, save_filepath=str(path), show_colorbar=True)
    assert path.read_bytes()[:8] == PNG_MAGIC
    ImageVisualizer().visualize(numpy.abs(saliency), save_filepath=str(tmp_path / "rgb.png"))
    assert (tmp_path / "rgb.png").read_bytes()[:8] == PNG_MAGIC
    with pytest.raises(ValueError, match="saliency"):
        ImageVisualizer().visualize(numpy.ones(4))


def test_base_visualizer_is_abstract():
    with pytest.raises(NotImplementedError):
        BaseVisualizer().visualize()
