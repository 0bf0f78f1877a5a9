"""Classification reproductions: the Trainer-based train and evaluate steps shared by every classifier recipe."""
import dataclasses
from typing import Callable

import numpy

import kusari
import kusari.links as L
from kusari.dataset import concat_examples
from kusari.datasets import SubDataset
from kusari.iterators import SerialIterator, ShuffleOrderSampler
from kusari.training import StandardUpdater, Trainer, extensions

from reproductions.spec import Reproduction, Tier

_OPTIONS = {"train_size"}


def classification_error(model, dataset, batch_size: int = 1000) -> float:
    """Fraction of ``dataset``'s ``(x, label)`` pairs whose argmax logit is not the label.

    Parameters
    ----------
    model : Link
        Maps a batch ``x`` of shape ``(B, ...)`` to logits ``(B, n_class)``.
    dataset : dataset of (x, label)
        The examples; labels are ints.
    batch_size : int
        Examples per forward pass.

    Returns
    -------
    float
        The error rate in [0, 1].
    """
    wrong = 0
    with kusari.using_config("train", False), kusari.no_backprop_mode():
        for start in range(0, len(dataset), batch_size):
            x, t = concat_examples(dataset[start:start + batch_size])
            y = model(x).array
            wrong += int((y.argmax(axis=1) != t).sum())
    return wrong / len(dataset)


@dataclasses.dataclass(frozen=True)
class Classification:
    """A classifier recipe: softmax cross-entropy (``L.Classifier``) trained by a Trainer for whole epochs.

    Parameters
    ----------
    make_model
        ``make_model() -> Link`` producing logits (a fresh, randomly initialized model).
    load_data
        ``load_data() -> (train, test)`` datasets of ``(x, label)`` pairs.
    make_optimizer
        ``make_optimizer(iterations) -> (optimizer, extensions)``: a not yet set up
        optimizer and trainer extensions (e.g. a learning-rate schedule) for a run of ``iterations``.
    batch_size
        training minibatch size.

    A tier's budget counts epochs; its one option, ``train_size``, trains on the first
    ``train_size`` training examples.
    """

    make_model: Callable
    load_data: Callable
    make_optimizer: Callable
    batch_size: int

    def reproduction(self, **declaration) -> Reproduction:
        """The :class:`Reproduction` of this recipe; ``declaration`` holds its name, task, target,
        tiers, recipe and zoo_name."""
        for name, tier in declaration.get("tiers", {}).items():
            unknown = set(tier.options) - _OPTIONS
            if unknown:
                raise ValueError(f"{declaration.get('name')}: tier {name!r} has unknown options "
                                 f"{sorted(unknown)}; a classification tier knows {sorted(_OPTIONS)}")
        return Reproduction(budget_unit="epochs", train=self.train, evaluate=self.evaluate,
                            config={"batch_size": self.batch_size}, **declaration)

    def train(self, tier: Tier, seed: int, work_dir: str) -> kusari.Link:
        """Train a new model for ``tier.budget`` epochs, resuming from ``work_dir``'s newest epoch snapshot.

        Returns
        -------
        Link
            The trained model (without its Classifier wrapper).
        """
        train, _ = self.load_data()
        train_size = tier.options.get("train_size")
        if train_size is not None:
            train = SubDataset(train, 0, min(train_size, len(train)))
        model = self.make_model()
        iterations = tier.budget * -(-len(train) // self.batch_size)
        optimizer, schedule = self.make_optimizer(iterations)
        optimizer.setup(L.Classifier(model))
        iterator = SerialIterator(train, self.batch_size,
                                  order_sampler=ShuffleOrderSampler(numpy.random.RandomState(seed)))
        trainer = Trainer(StandardUpdater(iterator, optimizer), (tier.budget, "epoch"), out=work_dir)
        trainer.extend(extensions.snapshot(filename="snapshot_epoch_{.updater.epoch}", n_retains=1,
                                           autoload=True), trigger=(1, "epoch"))
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(["epoch", "main/loss", "main/accuracy", "elapsed_time"]))
        trainer.extend(extensions.ProgressBar(update_interval=100))
        for extension in schedule:
            trainer.extend(extension)
        print(f"training {tier.budget} epochs on {len(train)} examples", flush=True)
        trainer.run()
        return model

    def evaluate(self, model: kusari.Link, tier: Tier, seed: int) -> float:
        """``model``'s :func:`classification_error` on the test set (the same for every tier and seed)."""
        return classification_error(model, self.load_data()[1])
