"""VariableStatisticsPlot: plot percentile bands, mean and std of parameter values and gradients over training."""
import json
import os

import numpy

from kusari import backend
from kusari.link import Link
from kusari.training import extension
from kusari.training.extensions._plotting import matplotlib_available, new_figure, save_png
from kusari.training.trigger import get_trigger
from kusari.variable import Variable


def _gather(variables, attr, max_sample_size):
    """All ``attr`` arrays flattened into one host array, thinned by an even stride to at most
    ``max_sample_size`` elements (deterministic, so it draws nothing from any random generator)."""
    arrays = [getattr(v, attr) for v in variables]
    arrays = [backend.to_cpu(a).ravel() for a in arrays if a is not None]
    if not arrays:
        return None
    x = numpy.concatenate(arrays).astype(numpy.float64)
    if x.size > max_sample_size:
        x = x[numpy.linspace(0, x.size - 1, max_sample_size).astype(numpy.int64)]
    return x


class VariableStatisticsPlot(extension.Extension):
    """Every ``trigger`` interval, records percentiles, mean and std of the values (``data``) and
    gradients (``grad``) of ``targets`` and draws them against the iteration into ``out/filename``.

    Parameters
    ----------
    targets : Link, Variable or list of them
        what to watch (a Link means its parameters).
    max_sample_size : int
        statistics use at most this many evenly strided elements.
    report_data, report_grad : bool
        which subplots to draw.
    plot_mean, plot_std : bool
        draw the mean, and mean +- std.
    percentile_sigmas : tuple
        percentiles (0-100) drawn as shaded bands.
    trigger
        ``(1, 'epoch')`` by default.
    filename : str
        PNG in the trainer's ``out``; figsize, marker, grid: matplotlib options.
    """

    def __init__(self, targets, max_sample_size=1000, report_data=True, report_grad=True, plot_mean=True,
                 plot_std=True, percentile_sigmas=(0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100),
                 trigger=(1, "epoch"), filename="statistics.png", figsize=None, marker=None, grid=True):
        if not isinstance(targets, (list, tuple)):
            targets = [targets]
        variables = []
        for target in targets:
            if isinstance(target, Link):
                variables.extend(target.params())
            elif isinstance(target, Variable):
                variables.append(target)
            else:
                raise TypeError(f"VariableStatisticsPlot: targets must be Links or Variables, "
                                f"got {type(target).__name__}")
        if not (report_data or report_grad):
            raise ValueError("VariableStatisticsPlot: report_data and report_grad are both False")
        self._vars = variables
        self._max_sample_size = int(max_sample_size)
        self._keys = [k for k, on in (("data", report_data), ("grad", report_grad)) if on]
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        self._percentile_sigmas = tuple(percentile_sigmas)
        self._trigger = get_trigger(trigger)
        self._filename = filename
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._samples = {k: [] for k in self._keys}  # key -> [(iteration, [mean, std, *percentiles])]

    @staticmethod
    def available() -> bool:
        """Whether matplotlib is installed."""
        return matplotlib_available()

    def __call__(self, trainer):
        if not self._trigger(trainer):
            return
        iteration = trainer.updater.iteration
        for key in self._keys:
            x = _gather(self._vars, "array" if key == "data" else "grad", self._max_sample_size)
            if x is not None:
                percentiles = numpy.percentile(x, self._percentile_sigmas)
                row = [float(x.mean()), float(x.std())] + [float(v) for v in percentiles]
                self._samples[key].append((iteration, row))
        self._plot(os.path.join(trainer.out, self._filename))

    def _plot(self, path):
        figure = new_figure("VariableStatisticsPlot", self._figsize)
        n_bands = len(self._percentile_sigmas)
        for i, key in enumerate(self._keys):
            axes = figure.add_subplot(1, len(self._keys), i + 1)
            axes.set_title(key)
            axes.set_xlabel("iteration")
            axes.grid(self._grid)
            if not self._samples[key]:
                continue
            xs = numpy.array([it for it, _ in self._samples[key]])
            rows = numpy.array([row for _, row in self._samples[key]])
            mean, std, perc = rows[:, 0], rows[:, 1], rows[:, 2:]
            for j in range(n_bands // 2):
                axes.fill_between(xs, perc[:, j], perc[:, n_bands - 1 - j], color="C0",
                                  alpha=0.8 / (n_bands // 2), linewidth=0)
            if self._plot_mean:
                axes.plot(xs, mean, color="C1", marker=self._marker, label="mean")
            if self._plot_std:
                axes.plot(xs, mean + std, color="C2", linestyle="--", marker=self._marker, label="mean + std")
                axes.plot(xs, mean - std, color="C2", linestyle="--", marker=self._marker, label="mean - std")
            if self._plot_mean or self._plot_std:
                axes.legend(loc="best")
        save_png(figure, path)

    def serialize(self, serializer):
        if hasattr(self._trigger, "serialize"):
            self._trigger.serialize(serializer["_trigger"])
        samples = json.loads(serializer("_samples", json.dumps(self._samples)))
        self._samples = {k: [(it, row) for it, row in samples.get(k, [])] for k in self._keys}
