"""The loss-and-metrics forward that Classifier and Regressor share."""
from collections.abc import Callable

import numpy

import kusari
from kusari import backend, reporter
from kusari.chem.dataset.graph_dataset.base_graph_data import BaseGraphData
from kusari.chem.models.prediction.base import BaseForwardModel


def metrics_dict(owner: str, metrics_fun, default_name: str) -> dict:
    """``metrics_fun`` as a name -> function dict: None gives {}, a callable ``{default_name: it}``."""
    if metrics_fun is None:
        return {}
    if callable(metrics_fun):
        return {default_name: metrics_fun}
    if isinstance(metrics_fun, dict):
        return dict(metrics_fun)
    raise TypeError(f"{owner}: metrics_fun must be None, a callable or a dict of them, "
                    f"got {type(metrics_fun).__name__}")


class SupervisedForwardModel(BaseForwardModel):
    """``model(*args, t)`` -> ``lossfun(predictor(*args), t)``, reporting the loss and metrics.

    After a call ``y``, ``loss`` and ``metrics`` (name -> Python scalar) hold the last results.
    """

    compute_metrics = True

    def __init__(self, predictor, lossfun: Callable, metrics_fun: dict, label_key, device):
        if not isinstance(label_key, (int, str)):
            raise TypeError(f"{type(self).__name__}: label_key must be int or str, "
                            f"got {type(label_key).__name__}")
        super().__init__()
        self.lossfun = lossfun
        if not metrics_fun:
            self.compute_metrics = False
        self.metrics_fun = metrics_fun
        self.y = None
        self.loss = None
        self.metrics = None
        self.label_key = label_key
        with self.init_scope():
            self.predictor = predictor
        self.initialize(device)

    def _convert_to_scalar(self, value):
        """A Variable, 0-d or one-element array as a Python scalar (reports stay off the device)."""
        if isinstance(value, kusari.Variable):
            value = value.array
        if numpy.isscalar(value):
            return value
        return backend.to_cpu(value).item()

    def _split_label(self, args: tuple, kwargs: dict):
        """(features args, features kwargs, label t) by ``label_key``; graph data carries its own y."""
        if args and isinstance(args[0], BaseGraphData):
            return args, kwargs, args[0].y
        key = self.label_key
        if isinstance(key, int):
            if not -len(args) <= key < len(args):
                raise ValueError(f"{type(self).__name__}: label_key={key} is out of bounds for "
                                 f"{len(args)} positional arguments")
            index = key % len(args)
            return args[:index] + args[index + 1:], kwargs, args[key]
        if key not in kwargs:
            raise ValueError(f"{type(self).__name__}: label_key {key!r} is not among the keyword "
                             f"arguments {sorted(kwargs)}")
        kwargs = dict(kwargs)
        t = kwargs.pop(key)
        return args, kwargs, t

    def _check_batch(self, args: tuple, kwargs: dict, t) -> None:
        """Refuse labels for another number of examples than the first feature array holds,
        before the predictor runs: in train mode it would update statistics (batch
        normalization's running averages) for a call that then fails in the loss."""
        features = args[0] if args else next(iter(kwargs.values()), None)
        if not (hasattr(features, "shape") and hasattr(t, "shape") and features.ndim and t.ndim):
            return  # graph data, lists: the predictor checks them
        if features.shape[0] != t.shape[0]:
            raise ValueError(f"{type(self).__name__}: the label holds {t.shape[0]} examples but the "
                             f"features {features.shape[0]} (label shape {t.shape}, features "
                             f"shape {features.shape})")

    def forward(self, *args, **kwargs):
        """Features and the label (at ``label_key``) -> the loss Variable.

        Parameters
        ----------
        *args, **kwargs
            The predictor's inputs plus the label: positional at ``label_key`` (an int, the last
            by default) or the keyword ``label_key`` (a str). A graph-data first argument
            supplies the label as its ``y``.

        Returns
        -------
        kusari.Variable
            The loss, shape ().
        """
        args, kwargs, t = self._split_label(args, kwargs)
        self._check_batch(args, kwargs, t)
        self.y = None
        self.loss = None
        self.metrics = None
        self.y = self.predictor(*args, **kwargs)
        self.loss = self.lossfun(self.y, t)
        reporter.report({"loss": self._convert_to_scalar(self.loss)}, self)
        if self.compute_metrics:
            self.metrics = {name: self._convert_to_scalar(fun(self.y, t))
                            for name, fun in self.metrics_fun.items()}
            reporter.report(self.metrics, self)
        return self.loss
