"""What a reproduction declares: the published target, the tiers, and how to build model, data and optimizer."""
import dataclasses
from typing import Callable


@dataclasses.dataclass(frozen=True)
class Target:
    """A published number to reproduce.

    Args:
        value: the published value of ``metric`` (fractions for rates: 0.016 is 1.6%).
        metric: what is measured, e.g. ``'test_error'``.
        direction: ``'lower'`` or ``'higher'`` is better.
        tolerance: how far on the wrong side of ``value`` the full tier's mean may land and still pass.
        citation: paper, venue, and the table or figure the value is taken from.
    """

    value: float
    metric: str
    direction: str
    tolerance: float
    citation: str

    def __post_init__(self):
        if self.direction not in ("lower", "higher"):
            raise ValueError(f"Target: direction must be 'lower' or 'higher', got {self.direction!r}")
        if self.tolerance < 0:
            raise ValueError(f"Target: tolerance must be >= 0, got {self.tolerance}")

    @property
    def bound(self) -> float:
        """The worst passing value: ``value + tolerance`` (lower is better) or ``value - tolerance``."""
        return self.value + self.tolerance if self.direction == "lower" else self.value - self.tolerance

    def passes(self, measured: float, bound: float | None = None) -> bool:
        """Whether ``measured`` is on the right side of ``bound`` (default :attr:`bound`)."""
        bound = self.bound if bound is None else bound
        return measured <= bound if self.direction == "lower" else measured >= bound


@dataclasses.dataclass(frozen=True)
class Tier:
    """One way to run a reproduction.

    Args:
        epochs: training epochs.
        bound: the pass threshold on the target's metric; None means the target's own bound.
        train_size: use the first ``train_size`` training examples (None: all of them).
        note: one line on what this tier checks.
    """

    epochs: int
    bound: float | None = None
    train_size: int | None = None
    note: str = ""


@dataclasses.dataclass(frozen=True)
class Reproduction:
    """A training recipe and the number it must reach.

    Args:
        name: ``'<domain>/<short name>'``, e.g. ``'vision/mnist_mlp'``.
        task: one line, e.g. ``'MNIST digit classification'``.
        target: the published :class:`Target`.
        tiers: tier name (``'quick'``, ``'full'``) -> :class:`Tier`.
        make_model: ``make_model() -> Link`` producing logits (a fresh, randomly initialized model).
        load_data: ``load_data() -> (train, test)`` datasets of ``(x, label)`` pairs.
        make_optimizer: ``make_optimizer(epochs) -> (optimizer, extensions)``: a not yet set up
            optimizer and trainer extensions (e.g. a learning-rate schedule) for a run of ``epochs``.
        batch_size: training minibatch size.
        recipe: a short human-readable description of the recipe (shown in RESULTS.md).
        zoo_name: the model-zoo entry the full tier's weights become (None: none).
    """

    name: str
    task: str
    target: Target
    tiers: dict
    make_model: Callable
    load_data: Callable
    make_optimizer: Callable
    batch_size: int
    recipe: str
    zoo_name: str | None = None

    def tier(self, name: str) -> Tier:
        """The tier called ``name``; ValueError listing the tiers otherwise."""
        try:
            return self.tiers[name]
        except KeyError:
            raise ValueError(f"{self.name}: unknown tier {name!r}; tiers: {', '.join(self.tiers)}") from None

    def bound(self, tier: str) -> float:
        """The pass threshold of ``tier``."""
        b = self.tier(tier).bound
        return self.target.bound if b is None else b
