"""Agg backend, the ChainerCV fixture and what an axis holds, read the way the fixture writer reads it."""
import importlib.util
import pathlib

import matplotlib
import numpy
import pytest

matplotlib.use("Agg")

_spec = importlib.util.spec_from_file_location("vision_chainercv_npz",
                                               pathlib.Path(__file__).resolve().parents[1] / "chainercv_npz.py")
chainercv_npz = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(chainercv_npz)


@pytest.fixture(scope="session")
def vis_fixture():
    """tools/chainercv_fixtures/visualizations.py's output."""
    return chainercv_npz.Fixture("visualizations")


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    import matplotlib.pyplot as plt
    plt.close("all")


def drawn(ax, legend=None) -> dict:
    """The artists of ``ax`` as the writer records them (tools/chainercv_fixtures/visualizations.py)."""
    patches = [p for p in ax.patches if isinstance(p, matplotlib.patches.Rectangle)]
    out = {
        "patches": numpy.array([[*p.get_xy(), p.get_width(), p.get_height(), *p.get_edgecolor(), p.get_linewidth(),
                                 numpy.nan if p.get_alpha() is None else p.get_alpha()] for p in patches],
                               numpy.float64).reshape(-1, 10),
        "texts": numpy.array([t.get_text() for t in ax.texts], dtype=str),
        "text_props": numpy.array([[*t.get_position(), t.get_fontsize(), t.get_style() == "italic",
                                    *t.get_bbox_patch().get_facecolor()] for t in ax.texts], numpy.float64).reshape(-1, 8),
        "text_colors": numpy.array([matplotlib.colors.to_rgba(t.get_color()) for t in ax.texts]).reshape(-1, 4),
        "n_images": len(ax.images),
        "points": numpy.array([[*c.get_offsets()[0], *c.get_facecolor()[0], c.get_sizes()[0]] for c in ax.collections],
                              numpy.float64).reshape(-1, 7),
        "limits": numpy.array([*ax.get_xlim(), *ax.get_ylim()]),
    }
    for k, image in enumerate(ax.images):
        out[f"image_{k}"] = numpy.asarray(image.get_array())
    if legend is not None:
        out["legend_labels"] = numpy.array([h.get_label() for h in legend], dtype=str)
        out["legend_colors"] = numpy.array([h.get_facecolor() for h in legend]).reshape(-1, 4)
    return out


@pytest.fixture
def assert_drawn_like(vis_fixture):
    """Compare an axis (and legend handles) with a fixture case: the same artists, properties and images."""
    def check(case, ax, legend=None, limits=True):
        actual = drawn(ax, legend)
        assert actual["n_images"] == int(vis_fixture[f"{case}/n_images"])
        keys = ["patches", "texts", "text_props", "text_colors", "points"] + [f"image_{k}" for k in range(actual["n_images"])]
        if limits:
            keys.append("limits")
        if legend is not None:
            keys += ["legend_labels", "legend_colors"]
        for key in keys:
            expected = vis_fixture[f"{case}/{key}"]
            if expected.dtype.kind in "US":
                numpy.testing.assert_array_equal(actual[key], expected, err_msg=f"{case}: {key}")
            else:
                numpy.testing.assert_allclose(actual[key], expected, rtol=0, atol=1e-6, err_msg=f"{case}: {key}")
        return actual
    return check
