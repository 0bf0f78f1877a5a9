"""Evaluator: run a model over a validation iterator (train=False, no backprop) and report the means."""
import copy

from kusari import backend
from kusari import configuration
from kusari import reporter as reporter_module
from kusari.dataset import convert
from kusari.link import Link
from kusari.training import extension


def _as_dict(what, value, kind):
    if isinstance(value, dict):
        if "main" not in value:
            raise ValueError(f"Evaluator: a dict of {what} needs a 'main' entry, got keys {sorted(value)}")
        return dict(value)
    if kind is not None and not isinstance(value, kind):
        raise TypeError(f"Evaluator: {what} must be a {kind.__name__} or a dict of them, "
                        f"got {type(value).__name__}")
    return {"main": value}


class Evaluator(extension.Extension):
    """Evaluates ``target`` on every batch of ``iterator`` and reports the mean of each observation.

    The run is under ``config.train = False`` and ``no_backprop_mode``. Values the target reports
    (e.g. ``L.Classifier``'s ``loss``, ``accuracy``) come out as ``'<name>/main/loss'``, where
    ``<name>`` is this extension's name (``'validation'`` by default).

    Parameters
    ----------
    iterator
        an Iterator or a dict of them (one ``'main'``); it must not repeat.
    target
        a Link or a dict of them (one ``'main'``).
    converter
        batch -> inputs, ``concat_examples`` by default.
    device
        where inputs go (e.g. ``'@cupy:0'``); None leaves them.
    eval_hook : callable
        ``eval_hook(evaluator)`` before each evaluation.
    eval_func : callable
        called with the inputs instead of the main target.
    """

    trigger = 1, "epoch"
    default_name = "validation"
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(self, iterator, target, converter=convert.concat_examples, device=None,
                 eval_hook=None, eval_func=None):
        self._iterators = _as_dict("iterators", iterator, None)
        self._targets = _as_dict("targets", target, Link)
        if getattr(self._iterators["main"], "repeat", False):
            raise ValueError("Evaluator: the iterator repeats (repeat=True), so evaluation would never "
                             "end; create it with repeat=False")
        self.converter = converter
        self.device = None if device is None else backend.get_device(device)
        self.eval_hook = eval_hook
        self.eval_func = eval_func

    def get_iterator(self, name):
        return self._iterators[name]

    def get_all_iterators(self) -> dict:
        return dict(self._iterators)

    def get_target(self, name):
        return self._targets[name]

    def get_all_targets(self) -> dict:
        return dict(self._targets)

    def __call__(self, trainer=None) -> dict:
        """Evaluate, report the results to the current reporter (if any) and return them."""
        reporter = reporter_module.Reporter()
        prefix = self.name + "/" if self.name else ""
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            reporter.add_observers(prefix + name, target.namedlinks(skipself=True))
        with reporter, configuration.using_config("train", False):
            result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self) -> dict:
        """Mean of every scalar observation over the whole evaluation iterator."""
        iterator = self._iterators["main"]
        eval_func = self.eval_func or self._targets["main"]
        if self.eval_hook is not None:
            self.eval_hook(self)
        if hasattr(iterator, "reset"):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        summary = reporter_module.DictSummary()
        for batch in it:
            observation = {}
            with reporter_module.report_scope(observation):
                in_arrays = self.converter(batch, self.device)
                with configuration.no_backprop_mode():
                    if isinstance(in_arrays, tuple):
                        eval_func(*in_arrays)
                    elif isinstance(in_arrays, dict):
                        eval_func(**in_arrays)
                    else:
                        eval_func(in_arrays)
            summary.add(observation)
        return summary.compute_mean()
