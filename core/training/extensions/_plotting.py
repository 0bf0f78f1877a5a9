"""Matplotlib access for the plotting extensions: optional import, Agg figures without pyplot, atomic PNG."""
import importlib.util
import io

from kusari.utils.extras import import_optional
from kusari.training.extensions._files import write_bytes


def matplotlib_available() -> bool:
    return importlib.util.find_spec("matplotlib") is not None


def new_figure(feature: str, figsize=None):
    """A Figure on an Agg canvas (no pyplot state, no display needed)."""
    import_optional("matplotlib", "plot", feature)
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    figure = Figure(figsize=figsize)
    FigureCanvasAgg(figure)
    return figure


def save_png(figure, path: str) -> None:
    """Render ``figure`` as PNG and replace ``path`` atomically."""
    buf = io.BytesIO()
    figure.savefig(buf, format="png")
    write_bytes(path, buf.getvalue())
