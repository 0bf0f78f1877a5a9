"""TableVisualizer: a horizontal bar chart of per-feature saliency (matplotlib)."""
import numpy
from kusari.chem.saliency.visualizer.base_visualizer import BaseVisualizer
from kusari.chem.saliency.visualizer.visualizer_utils import (
    _pyplot,
    _save_or_show,
    abs_max_scaler,
)

_SORTS = ("none", "ascending", "descending")


class TableVisualizer(BaseVisualizer):
    """Draw the saliency of tabular features as bars, largest at the top by default."""

    def visualize(self, saliency: numpy.ndarray, feature_names=None, save_filepath=None, num_visualize: int = -1,
                  scaler=abs_max_scaler, sort: str = "descending", title="Feature Importance", color="b",
                  xlabel: str = "Importance", bbox_inches="tight") -> None:
        """Bar chart of ``saliency``, written to ``save_filepath`` or shown.

        Parameters
        ----------
        saliency : numpy.ndarray, (n_features,)
        feature_names : sequence of n_features labels, or None (their indices)
        save_filepath : str or None
            The image file (format from its extension); None shows the figure.
        num_visualize : int
            Above 0, only the first ``num_visualize`` features after sorting (drawn from the bottom).
        scaler : callable or None
            Applied to the sorted saliency (to [-1, 1] by default).
        sort : {'none', 'ascending', 'descending'}
            The order from top to bottom of the chart.
        title : str or None
        color : matplotlib color of the bars
        xlabel : str
        bbox_inches : str, Bbox or None
            Passed to ``savefig``.
        """
        saliency = numpy.asarray(saliency)
        if saliency.ndim != 1:
            raise ValueError(f"TableVisualizer.visualize: saliency must be 1-D, got shape {saliency.shape}")
        num_total = saliency.shape[0]
        if feature_names is None:
            feature_names = numpy.arange(num_total)
        elif len(feature_names) != num_total:
            raise ValueError(f"TableVisualizer.visualize: {len(feature_names)} feature_names for {num_total} "
                             "saliency values")
        if sort == "none":
            indices = numpy.arange(num_total)
        elif sort == "ascending":
            # barh draws the first bar at the bottom: descending values read ascending from the top
            indices = numpy.argsort(saliency)[::-1]
        elif sort == "descending":
            indices = numpy.argsort(saliency)
        else:
            raise ValueError(f"TableVisualizer.visualize: sort must be one of {_SORTS}, got {sort!r}")
        saliency = saliency[indices]
        feature_names = numpy.asarray(feature_names)[indices]
        if scaler is not None:
            saliency = scaler(saliency)
        if num_visualize > 0:
            saliency = saliency[:num_visualize]
            feature_names = feature_names[:num_visualize]
        num_shown = len(saliency)

        plt = _pyplot()
        fig = plt.figure()
        if title is not None:
            plt.title(title)
        plt.barh(range(num_shown), saliency, color=color, align="center")
        plt.yticks(range(num_shown), feature_names)
        plt.xlabel(xlabel)
        _save_or_show(plt, fig, save_filepath, bbox_inches)
