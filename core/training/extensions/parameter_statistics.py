"""ParameterStatistics: report statistics (mean, std, min, max, percentiles, zeros) of link parameters and gradients."""
from kusari import backend
from kusari import reporter
from kusari.training import extension

_PERCENTILE_SIGMAS = (0.13, 2.28, 15.87, 50.0, 84.13, 97.72, 99.87)


def _percentiles(x):
    xp = backend.get_array_module(x)
    return xp.percentile(x, _PERCENTILE_SIGMAS)


def _zeros(x):
    return backend.get_array_module(x).count_nonzero(x == 0)


class ParameterStatistics(extension.Extension):
    """Reports, for every parameter of ``links``, statistics of its data and/or gradient under
    ``'{prefix}{link name}{param path}/{data|grad}/{statistic}'``, e.g. ``'main/l1/W/data/mean'``;
    percentiles (at the 0.13 ... 99.87 sigma points) as ``.../percentile/0`` to ``/6``.

    Parameters
    ----------
    links : Link or list of Links
        the links to watch.
    statistics : dict or 'default'
        name -> function of an array; 'default' gives mean, std,
        min, max, zeros (count of exact zeros) and percentile.
    report_params, report_grads : bool
        which arrays to describe.
    prefix : str
        prepended (with '/') to every key.
    trigger
        how often (``(1, 'epoch')`` by default).
    skip_nan_params : bool
        skip arrays containing NaN instead of reporting NaN statistics.
    """

    default_name = "parameter_statistics"
    priority = extension.PRIORITY_WRITER

    def __init__(self, links, statistics="default", report_params=True, report_grads=True, prefix=None,
                 trigger=(1, "epoch"), skip_nan_params=False):
        self._links = list(links) if isinstance(links, (list, tuple)) else [links]
        if statistics == "default":
            statistics = {"mean": lambda x: x.mean(), "std": lambda x: x.std(), "min": lambda x: x.min(),
                          "max": lambda x: x.max(), "zeros": _zeros, "percentile": _percentiles}
        self._statistics = dict(statistics or {})
        self._attrs = [a for a, on in (("data", report_params), ("grad", report_grads)) if on]
        self._prefix = prefix
        self.trigger = trigger
        self._skip_nan_params = skip_nan_params

    def __call__(self, trainer):
        stats = {}
        prefix = self._prefix + "/" if self._prefix else ""
        for link in self._links:
            link_name = getattr(link, "name", None) or "None"
            for param_name, param in link.namedparams():
                for attr in self._attrs:
                    array = param.array if attr == "data" else param.grad
                    if array is None or array.size == 0:
                        continue
                    xp = backend.get_array_module(array)
                    if self._skip_nan_params and bool(xp.isnan(array).any()):
                        continue
                    for fname, func in self._statistics.items():
                        key = f"{prefix}{link_name}{param_name}/{attr}/{fname}"
                        value = func(array)
                        if getattr(value, "ndim", 0) == 0:
                            stats[key] = value
                        else:
                            for i, v in enumerate(value):
                                stats[f"{key}/{i}"] = v
        reporter.report(stats)
