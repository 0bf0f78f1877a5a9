"""PlotReport: plot the interval means of observed values against iteration or epoch, as a PNG."""
import json
import os

from kusari.training import extension
from kusari.training.extensions._interval_summary import IntervalSummary
from kusari.training.extensions._plotting import matplotlib_available, new_figure, save_png


class PlotReport(extension.Extension):
    """Every ``trigger`` interval, adds the means of ``y_keys`` to a line plot and rewrites
    ``out/filename`` (PNG, written atomically). Needs matplotlib (drawn with Agg, no display).

    Parameters
    ----------
    y_keys : str or list of str
        the observations to plot, one line each.
    x_key : str
        ``'iteration'``, ``'epoch'`` or another logged key for the x axis.
    trigger
        the averaging interval, ``(1, 'epoch')`` by default.
    postprocess : callable
        ``postprocess(figure, axes, summary)`` before saving.
    filename : str
        the PNG file name in the trainer's ``out``.
    marker : str
        matplotlib marker of the points; grid (bool): draw a grid.
    """

    def __init__(self, y_keys, x_key="iteration", trigger=(1, "epoch"), postprocess=None,
                 filename="plot.png", marker="x", grid=True):
        if isinstance(y_keys, str):
            y_keys = [y_keys]
        self._y_keys = list(y_keys)
        self._x_key = x_key
        self._interval = IntervalSummary(None, trigger)
        self._postprocess = postprocess
        self._filename = filename
        self._marker = marker
        self._grid = grid
        self._data = {k: [] for k in self._y_keys}

    @staticmethod
    def available() -> bool:
        """Whether matplotlib is installed (else this extension cannot draw)."""
        return matplotlib_available()

    def __call__(self, trainer):
        stats = self._interval.add(trainer)
        if stats is None:
            return
        x = stats.get(self._x_key)
        if x is None:
            return
        for key in self._y_keys:
            if key in stats:
                self._data[key].append((x, stats[key]))
        figure = new_figure("PlotReport")
        axes = figure.add_subplot(1, 1, 1)
        for key, points in self._data.items():
            if points:
                xs, ys = zip(*points)
                axes.plot(xs, ys, marker=self._marker, label=key)
        if axes.has_data():
            axes.legend(loc="best")
        axes.set_xlabel(self._x_key)
        axes.grid(self._grid)
        if self._postprocess is not None:
            self._postprocess(figure, axes, stats)
        save_png(figure, os.path.join(trainer.out, self._filename))

    def serialize(self, serializer):
        self._interval.serialize(serializer)
        data = json.loads(serializer("_data", json.dumps(self._data)))
        self._data = {k: [tuple(p) for p in data.get(k, [])] for k in self._y_keys}
