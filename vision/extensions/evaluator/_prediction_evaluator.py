"""What the vision evaluators share: run ``target.predict`` over the iterator and report metrics."""
import copy

from kusari import reporter
from kusari.training import extensions
from kusari.vision.utils.iterator import apply_to_iterator


class PredictionEvaluator(extensions.Evaluator):
    """An Evaluator that scores ``target.predict``'s outputs on the whole data set at once.

    Subclasses implement ``_metrics(out_values, rest_values) -> dict`` (name -> value); the values
    are reported under the target's name (``'main/map'``, or ``'validation/main/map'`` inside a
    Trainer). With ``comm`` (a ChainerMN-style communicator) the root scatters the batches and
    gathers the predictions; other workers only predict and report nothing.
    """

    def __init__(self, iterator, target, comm=None):
        # a non-root worker of ``comm`` reads no iterator
        super().__init__({"main": iterator} if iterator is None else iterator, target)
        self.comm = comm

    def evaluate(self) -> dict:
        target = self._targets["main"]
        if self.comm is not None and self.comm.rank != 0:
            apply_to_iterator(target.predict, None, comm=self.comm)
            return {}
        iterator = self._iterators["main"]
        if hasattr(iterator, "reset"):
            iterator.reset()
            it = iterator
        else:
            it = copy.copy(iterator)
        in_values, out_values, rest_values = apply_to_iterator(target.predict, it, comm=self.comm)
        del in_values                      # the images are not needed: let them go as they are read
        metrics = self._metrics(out_values, rest_values)
        observation = {}
        with reporter.report_scope(observation):
            reporter.report(metrics, target)
        return observation

    def _metrics(self, out_values, rest_values) -> dict:
        raise NotImplementedError


def per_class(metrics: dict, key: str, values, label_names) -> None:
    """Add ``'<key>/<name>'`` for each of ``label_names``: ``values[l]``, or nan beyond its end."""
    for label, name in enumerate(label_names):
        metrics[f"{key}/{name}"] = values[label] if label < len(values) else float("nan")


def coco_metrics(evaluator_name: str, evaluate, out_values, rest_values, label_names) -> dict:
    """Run a COCO evaluation ``evaluate(*predictions, *ground_truth, areas, crowdeds)`` and keep its
    means (``'map/...'``, ``'mar/...'``) and, with ``label_names``, ``'<ap or ar key>/<label_names[l]>'``."""
    if len(rest_values) not in (2, 4):
        raise ValueError(f"{evaluator_name}: the dataset must give 3 values per sample (img, ..., label) or 5 (img, "
                         f"..., label, area, crowded), got {1 + len(rest_values)}")
    areas, crowdeds = rest_values[2:] if len(rest_values) == 4 else (None, None)
    result = evaluate(*out_values, *rest_values[:2], areas, crowdeds)
    metrics = {key: value for key, value in result.items() if key.startswith(("map", "mar"))}
    if label_names is not None:
        for key, value in result.items():
            if key.startswith(("ap", "ar")):
                per_class(metrics, key, value, label_names)
    return metrics
