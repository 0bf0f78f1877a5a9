"""D-MPNN reproductions' recipe: chemprop's default network and schedule on MoleculeNet's protocol.

:class:`DMPNNRecipe` is a :class:`~reproductions.chem._molnet.MolNetRecipe` (the same splits, seeds,
metrics, padding mask and best-validation-epoch rule) whose network is kusari.chem's ``DMPNN`` on
``ChempropPreprocessor``'s atom and bond features, with the settings of chemprop 2.3.1's default
``chemprop train``: message hidden size 300, depth 3, no dropout, the molecule vector the atoms'
sum over 100, an FFN of one hidden layer of 300, batch 64, Adam with chemprop's step-size schedule
(linear from 1e-4 to 1e-3 over 2 epochs, then exponential down to 1e-4 at the last epoch,
:func:`kusari.chem.cli.noam_lr`), 50 epochs, regression labels standardized on the training part.

**How the settings are chosen, without the test part.** A recipe may name a small grid of
alternatives to chemprop's defaults (:attr:`DMPNNRecipe.grid`, each a dict of changed fields). In
each seed's run every candidate (the defaults first) is trained on that seed's training part with
the same initial-weight seed, and the candidate whose best validation epoch scores best on that
seed's validation part is kept; its predictor at that epoch is the one scored on the test part.
Each seed thus chooses on its own split's validation part, and the test part never chooses
anything. ``history.json`` holds every candidate's epochs (validation and, for inspection only, test
metric) and which candidate won.
"""
import dataclasses
import json
import os

import numpy

from kusari.chem.cli import noam_lr
from kusari.chem.dataset.preprocessors import ChempropPreprocessor
from kusari.chem.models.prediction import GraphConvPredictor, set_up_predictor

from reproductions.chem._molnet import HISTORY_FILE, SPLITS, MolNetRecipe, TrainedPredictor
from reproductions.spec import Tier

#: D-MPNN settings a grid candidate may change
GRID_FIELDS = ("n_unit", "conv_layers", "dropout", "batch_size", "lr")
#: the alternatives FreeSolv's recipe compares with chemprop's defaults: a deeper network and
#: dropout, two of the settings Yang et al. 2019 optimized (depth 2-6, dropout 0-0.4); ESOL compares
#: depth 5 alone and the larger datasets keep the defaults, since each candidate costs a whole run
SMALL_GRID = ({"conv_layers": 5}, {"dropout": 0.1}, {"conv_layers": 5, "dropout": 0.1})
YANG_2019 = ("Yang et al., Analyzing learned molecular representations for property prediction, "
             "J. Chem. Inf. Model. 59, 3370 (2019)")


@dataclasses.dataclass(frozen=True)
class DMPNNRecipe(MolNetRecipe):
    """chemprop's D-MPNN trained on a MoleculeNet dataset under MoleculeNet's protocol.

    Parameters
    ----------
    dataset : str
        A key of ``molnet_default_config`` among :data:`~reproductions.chem._molnet.SPLITS`.
    method : str
        ``'dmpnn'`` (the only one).
    n_unit : int
        Message hidden size, also the FFN's hidden width (chemprop: 300).
    conv_layers : int
        chemprop's depth (3).
    batch_size : int
        chemprop: 64.
    lr : float
        The schedule's peak step size (chemprop's ``--max-lr``, 1e-3).
    dropout : float
        Dropout ratio inside the D-MPNN (chemprop: 0).
    warmup_epochs : int
        Epochs of the linear warm-up from ``init_lr`` to ``lr`` (chemprop: 2).
    init_lr, final_lr : float
        Step sizes at the start and at the last epoch (chemprop: 1e-4 and 1e-4).
    grid : tuple of dict
        Alternatives to these settings, each a dict of changed :data:`GRID_FIELDS`, chosen among
        on each seed's validation part (see the module docstring); empty: the settings as they are.
    """

    method: str = "dmpnn"
    n_unit: int = 300
    conv_layers: int = 3
    batch_size: int = 64
    lr: float = 1e-3
    dropout: float = 0.0
    warmup_epochs: int = 2
    init_lr: float = 1e-4
    final_lr: float = 1e-4
    grid: tuple = ()

    def __post_init__(self):
        if self.dataset not in SPLITS:
            raise ValueError(f"DMPNNRecipe: dataset must be one of {sorted(SPLITS)}, got {self.dataset!r}")
        if self.method != "dmpnn":
            raise ValueError(f"DMPNNRecipe: method must be 'dmpnn', got {self.method!r}")
        if not 0 <= self.dropout < 1:
            raise ValueError(f"DMPNNRecipe: dropout must be in [0, 1), got {self.dropout}")
        for k, changes in enumerate(self.grid):
            if not isinstance(changes, dict) or not changes:
                raise ValueError(f"DMPNNRecipe: grid[{k}] must be a non-empty dict of changed settings, "
                                 f"got {changes!r}")
            unknown = sorted(set(changes) - set(GRID_FIELDS))
            if unknown:
                raise ValueError(f"DMPNNRecipe: grid[{k}] changes {unknown}; a candidate may change "
                                 f"{list(GRID_FIELDS)}")

    def preprocessor(self) -> ChempropPreprocessor:
        """chemprop's atom and bond features."""
        return ChempropPreprocessor()

    def step_size(self, update: int, updates_per_epoch: int, epochs: int) -> float:
        """chemprop's schedule: warm-up to :attr:`lr`, then exponential decay to ``final_lr``."""
        warmup = min(self.warmup_epochs, epochs) * updates_per_epoch
        cooldown = (epochs - min(self.warmup_epochs, epochs)) * updates_per_epoch
        return noam_lr(update, warmup, cooldown, self.init_lr, self.lr, self.final_lr)

    def make_predictor(self, n_tasks: int, label_scaler=None) -> GraphConvPredictor:
        """A new D-MPNN with chemprop's FFN head (one hidden layer of :attr:`n_unit`)."""
        return set_up_predictor("dmpnn", self.n_unit, self.conv_layers, n_tasks, label_scaler=label_scaler,
                                conv_kwargs={"dropout_ratio": self.dropout})

    def candidates(self) -> list:
        """The recipes the grid compares: these settings first, then each alternative."""
        return [dataclasses.replace(self, grid=())] + [dataclasses.replace(self, grid=(), **changes)
                                                       for changes in self.grid]

    def train(self, tier: Tier, seed: int, work_dir: str) -> TrainedPredictor:
        """Train every candidate on this seed's split; keep the best on the validation part.

        Each candidate starts from NumPy seeded with ``seed`` (its initial weights) and trains for
        ``tier.budget`` epochs (:meth:`MolNetRecipe.fit`); its best validation epoch is its score.
        ``work_dir/history.json`` holds each candidate's settings, epochs and best validation
        value, and the index of the kept one.
        """
        train, valid, test = self.load(tier, seed)
        candidates = self.candidates()
        print(f"{self.dataset}/dmpnn: {len(train)} train, {len(valid)} valid, {len(test)} test molecules; "
              f"{tier.budget} epochs; {len(candidates)} candidate(s)", flush=True)
        higher_is_better = self.task_type == "classification"
        runs = []
        for k, candidate in enumerate(candidates):
            numpy.random.seed(seed)
            predictor, best_epoch, history = candidate.fit(train, valid, tier.budget, seed, test=test)
            value = history[best_epoch - 1][f"valid_{self.metric_name}"]
            runs.append({"settings": {f: getattr(candidate, f) for f in GRID_FIELDS}, "best_epoch": best_epoch,
                         f"best_valid_{self.metric_name}": value, "epochs": history,
                         "predictor": predictor})
            print(f"candidate {k} {runs[-1]['settings']}: best validation epoch {best_epoch}, "
                  f"{self.metric_name} {value:.4f}", flush=True)
        values = [run[f"best_valid_{self.metric_name}"] for run in runs]
        kept = int(numpy.argmax(values) if higher_is_better else numpy.argmin(values))
        with open(os.path.join(work_dir, HISTORY_FILE), "w") as f:
            json.dump({"kept": kept, "candidates": [{k: v for k, v in run.items() if k != "predictor"}
                                                    for run in runs]}, f, indent=1)
        print(f"kept candidate {kept}", flush=True)
        return TrainedPredictor(predictor=runs[kept]["predictor"], test=test, best_epoch=runs[kept]["best_epoch"])

    @property
    def text(self) -> str:
        """The recipe in words, as RESULTS.md shows it."""
        labels = ("standardized labels" if self.task_type == "regression" else
                  "sigmoid cross-entropy per task, missing labels ignored")
        split = ("scaffold 80/10/10 (DeepChem's)" if SPLITS[self.dataset] == "dc_scaffold" else
                 "random 80/10/10")
        grid = ("" if not self.grid else
                f" Candidates {', '.join(json.dumps(c, sort_keys=True) for c in self.grid)} against these "
                f"settings, the best validation score of each seed kept.")
        return (f"D-MPNN (Yang et al., 2019) as chemprop 2.3.1's default: chemprop's atom and bond "
                f"features, hidden {self.n_unit}, depth {self.conv_layers}, dropout {self.dropout:g}, "
                f"sum/100 readout, FFN of one hidden layer of {self.n_unit}; Adam {self.init_lr:g} -> "
                f"{self.lr:g} over {self.warmup_epochs} epochs -> {self.final_lr:g}, batch {self.batch_size}; "
                f"{labels}; {split} split per seed; the best validation epoch is scored on the test part."
                + grid)
