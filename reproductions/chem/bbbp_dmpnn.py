"""chem/bbbp_dmpnn: chemprop's D-MPNN on MoleculeNet's BBBP against Wu et al., Chem. Sci. 2018.

Target: Wu et al., "MoleculeNet: a benchmark for molecular machine learning", Chem. Sci. 9, 513-530
(2018), BBBP results (scaffold split), row GC, test ROC-AUC: 0.69 ± 0.009; checked in an earlier
chemprop README (its column 'GraphConv (deepchem)'), since the paper's tables could not be read
here. It is the only BBBP row quoted there (as for chem/bbbp_nfp).

Tolerance 0.018: two of the paper's standard deviations over its runs (``TOLERANCE_STDS``), so the
full tier passes when the mean over 3 seeds is at least 0.672.

Recipe (:mod:`reproductions.chem._dmpnn`): chemprop 2.3.1's default D-MPNN and training (hidden 300,
depth 3, batch 64, Adam with chemprop's warm-up and decay between 1e-4 and 1e-3, 50 epochs) on
chemprop's atom and bond features; sigmoid cross-entropy, missing labels ignored; DeepChem's
scaffold 80/10/10 split (the same for every seed); the best validation epoch is scored on the test
part. No grid: chemprop's defaults alone (a candidate costs a whole run on this machine's shared
cores).

- Full tier: 50 epochs on the whole dataset, 3 seeds (three initializations on the
  one scaffold split).
- Quick tier (CI): the file's first 400 molecules, 10 epochs; a pipeline check that passes at a mean
  test ROC-AUC of 0.2, far below chance (0.5): it fails on a broken pipeline (an error, no task with
  both classes, a non-finite or grossly inverted score), not on poor learning; a briefly trained
  model on a small test part can score below chance (bbbp_nfp's quick tier measured 0.31).
"""
from reproductions.chem._dmpnn import DMPNNRecipe
from reproductions.chem._molnet import CHEMPROP_OLD, moleculenet_target
from reproductions.spec import Tier

RECIPE = DMPNNRecipe("bbbp")

REPRODUCTION = RECIPE.reproduction(
    name="chem/bbbp_dmpnn",
    task="BBBP blood-brain barrier penetration, D-MPNN",
    target=moleculenet_target(0.69, 0.009, "test_roc_auc",
                              "BBBP results (scaffold split), row GC, test ROC-AUC", CHEMPROP_OLD),
    tiers={"quick": Tier(budget=10, bound=0.2, options={"num_data": 400},
                         note="pipeline check: 400 molecules, 10 epochs, test ROC-AUC >= 0.2"),
           "full": Tier(budget=50, note="50 epochs on the whole dataset")},
)
