"""What a reproduction declares: the published target, the tiers and their budgets, its train and evaluate steps."""
import dataclasses
from typing import Any, Callable


class NotRunHere(Exception):
    """Raised by a train step when what its tier needs is absent here (a dataset, a GPU, published
    weights); the message says what is missing and where it is expected. The runner records the
    tier as "not run here" with that reason, and no number."""


@dataclasses.dataclass(frozen=True)
class Target:
    """A published number to reproduce.

    Parameters
    ----------
    value
        the published value of ``metric`` (fractions for rates: 0.016 is 1.6%).
    metric
        what is measured, e.g. ``'test_error'``.
    direction
        ``'lower'`` or ``'higher'`` is better.
    tolerance
        how far on the wrong side of ``value`` the full tier's mean may land and still pass.
    citation
        paper, venue, and the table or figure the value is taken from.
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

    Parameters
    ----------
    budget
        how much training, in the reproduction's ``budget_unit`` (epochs, environment
        steps, molecules...); a positive int.
    bound
        the pass threshold on the target's metric; None means the target's own bound.
    options
        JSON-able settings that the reproduction's train step reads for this tier
        (e.g. ``{'train_size': 10000}`` for a classifier trained on a subset).
    note
        one line on what this tier checks.
    """

    budget: int
    bound: float | None = None
    options: dict = dataclasses.field(default_factory=dict)
    note: str = ""

    def __post_init__(self):
        if isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 1:
            raise ValueError(f"Tier: budget must be a positive int, got {self.budget!r}")
        if not isinstance(self.options, dict):
            raise TypeError(f"Tier: options must be a dict, got {type(self.options).__name__}")


@dataclasses.dataclass(frozen=True)
class Reproduction:
    """A training recipe, the number it must reach, and the two steps that train and measure it.

    The runner (:func:`reproductions.runner.run`) owns everything else: seeding, timing, resuming
    finished seeds, worker processes, the result JSON, RESULTS.md and the zoo hand-off.

    Parameters
    ----------
    name
        ``'<domain>/<module>'``, e.g. ``'vision/mnist_mlp'`` for ``reproductions/vision/mnist_mlp.py``.
    task
        one line, e.g. ``'MNIST digit classification'``.
    target
        the published :class:`Target`.
    budget_unit
        what a tier's ``budget`` counts, e.g. ``'epochs'``, ``'environment steps'``.
    tiers
        tier name (``'quick'``, ``'full'``) -> :class:`Tier`.
    train
        ``train(tier, seed, work_dir) -> artifact``: trains one seed with ``tier.budget``
        units; NumPy's global RandomState and Python's ``random`` are already seeded with
        ``seed``; ``work_dir`` (created) is this seed's folder for snapshots, so that an
        interrupted seed may resume. The artifact is whatever the domain produces: a Link,
        an agent, a predictor with its preprocessor.
    evaluate
        ``evaluate(artifact, tier, seed) -> float``: the target's metric for ``artifact``.
    recipe
        a short human-readable description of the recipe (shown in RESULTS.md).
    zoo_name
        the model-zoo entry the full tier's seed 0 becomes (None: none).
    save
        ``save(artifact, path)`` writes the artifact as the single ``.npz`` file ``path``;
        None means :func:`kusari.serializers.save_npz` (the artifact must then be a Link).
    config
        JSON-able settings of the recipe that ``recipe`` may not spell out (batch size...);
        with the tier they name the work folder, so a changed recipe never reuses old seeds.
    """

    name: str
    task: str
    target: Target
    budget_unit: str
    tiers: dict
    train: Callable[[Tier, int, str], Any]
    evaluate: Callable[[Any, Tier, int], float]
    recipe: str
    zoo_name: str | None = None
    save: Callable[[Any, str], None] | None = None
    config: dict = dataclasses.field(default_factory=dict)

    def __post_init__(self):
        if not self.budget_unit:
            raise ValueError(f"{self.name}: budget_unit must name what a tier's budget counts")
        if not self.tiers or not all(isinstance(t, Tier) for t in self.tiers.values()):
            raise TypeError(f"{self.name}: tiers must be a non-empty dict of Tier, got {self.tiers!r}")
        for field in ("train", "evaluate", "save"):
            step = getattr(self, field)
            if not callable(step) and not (field == "save" and step is None):
                raise TypeError(f"{self.name}: {field} must be callable, got {type(step).__name__}")

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
