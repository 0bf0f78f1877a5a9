"""What the evaluation-only reproductions share: ChainerCV's published weights scored on the split ChainerCV
scored them on, with kusari.vision's evaluator of that task.

There is nothing to train: a tier's "training" builds the model. The full tier loads ChainerCV's
published weight file (fetched through ``kusari.model_zoo``'s URL and checksum, or from
``KUSARI_DOWNLOAD_MIRROR``) and reads the real dataset; where either is absent it raises
:class:`NotRunHere` saying which. The quick tier scores the same architecture, randomly initialized, on
a tiny dataset in the real layout (:mod:`reproductions.vision._fixtures`): a check of the pipeline,
any finite score passes.
"""
import os

import numpy

import kusari
from kusari.dataset import DownloadError

from reproductions.spec import NotRunHere, Reproduction, Target, Tier
from reproductions.vision import _fixtures
from reproductions.vision._chainercv import check_full_tier, dataset_root

QUICK_NOTE = "pipeline check: the architecture with random weights on a tiny dataset in the real layout, scored "


class TopOneError:
    """An evaluator of a classifier's ``predict`` (class probabilities per image): ``{'main/top1_error': e}``,
    the fraction of images whose most probable class is not their label."""

    def __init__(self, iterator, target):
        self.iterator = iterator
        self.target = target

    def evaluate(self) -> dict:
        from kusari.vision.utils import apply_to_iterator
        _, (probs,), (labels,) = apply_to_iterator(self.target.predict, self.iterator)
        wrong = [int(numpy.argmax(p) != t) for p, t in zip(probs, labels)]
        return {"main/top1_error": float(numpy.mean(wrong))}


def published_reproduction(*, name: str, task: str, target: Target, make_model, make_dataset, make_evaluator,
                           score_key: str, quick_fixture: str, full_datasets: dict, weights: str,
                           recipe: str) -> Reproduction:
    """An evaluation-only reproduction.

    Parameters
    ----------
    make_model : callable
        ``make_model(pretrained_model)``: the model, with ChainerCV's published ``pretrained_model``
        (the full tier) or None (random weights, the quick tier).
    make_dataset : callable
        ``make_dataset(root)``: the split to score, read from the dataset root ``root``.
    make_evaluator : callable
        ``make_evaluator(iterator, model)``: an object whose ``evaluate()`` returns ``{score_key: value}``.
    weights : str
        The ``pretrained_model`` name of ChainerCV's published weights (``'voc07'``, ``'coco'``...).
    """
    def train(tier, seed, work_dir):
        if tier.options["data"] == "fixture":
            root = _fixtures.WRITERS[quick_fixture](os.path.join(work_dir, "data"))["root"]
            model = make_model(None)
            if hasattr(model, "use_preset"):   # an untrained detector's thousands of boxes make 'evaluate' slow
                model.use_preset("visualize")
        else:
            check_full_tier(full_datasets, gpu=False)   # scoring needs no GPU, only time
            root = dataset_root()
            try:
                model = make_model(weights)
            except (DownloadError, FileNotFoundError) as e:
                raise NotRunHere(f"ChainerCV's published weights {weights!r} could not be fetched ({e})") from None
        return model, make_dataset(root)

    def evaluate(artifact, tier, seed):
        model, dataset = artifact
        iterator = kusari.iterators.SerialIterator(dataset, 1, repeat=False, shuffle=False)
        reporter = kusari.Reporter()   # the evaluator extensions report under the model's name, 'main'
        reporter.add_observer("main", model)
        with reporter.scope({}), kusari.using_config("train", False):
            return float(make_evaluator(iterator, model).evaluate()[score_key])

    worst = 1.0 if target.direction == "lower" else 0.0
    return Reproduction(
        name=name, task=task, target=target, budget_unit="evaluations",
        tiers={"quick": Tier(budget=1, bound=worst, options={"data": "fixture"},
                             note=QUICK_NOTE + f"{target.metric} (any finite value passes)"),
               "full": Tier(budget=1, options={"data": "real"},
                            note=f"ChainerCV's published weights {weights!r} on the real split")},
        train=train, evaluate=evaluate, recipe=recipe, config={"weights": weights})
