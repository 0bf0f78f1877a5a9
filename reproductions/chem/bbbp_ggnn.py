"""chem/bbbp_ggnn: GGNN on MoleculeNet's BBBP against Wu et al., Chem. Sci. 2018.

Target: Wu et al., "MoleculeNet: a benchmark for molecular machine learning", Chem. Sci. 9, 513-530
(2018), BBBP results (scaffold split), row GC, test ROC-AUC: 0.69 ± 0.009; checked in an earlier
chemprop README (its column 'GraphConv (deepchem)'), since the paper's tables could not be read
here.

UNVERIFIED as GGNN's target: no MoleculeNet GGNN or MPNN number on BBBP was found; the paper's GC
row, its graph-convolution model, is the reference. The lead decides.

Tolerance 0.018: two of the paper's standard deviations over its runs (``TOLERANCE_STDS``), so the
full tier passes when the mean over 3 seeds is at least 0.672.

Recipe (:mod:`reproductions.chem._molnet`, its ``METHOD_SETTINGS``, the same on every dataset): GGNN
(Li et al., 2016), width 64, 3 message-passing steps, MLP head, Adam (alpha 1e-3), batch 32; padding
atoms masked out of the readout; sigmoid cross-entropy per task, missing labels ignored; scaffold
80/10/10 (DeepChem's) split per seed; the predictor of the best validation epoch is scored on the
test part. Width and depth are bench.chem's (its ESOL comparison with chemprop) rather than Chainer
Chemistry's examples/molnet defaults (16 wide, 4 steps), as :mod:`reproductions.chem._molnet`
explains.

- Full tier: 50 epochs on the whole dataset, 3 seeds (three initializations on the one scaffold
  split).
- Quick tier (CI): the file's first 400 molecules, 10 epochs; a pipeline check that passes at a mean
  test ROC-AUC of 0.2, far below chance (0.5): it fails on a broken pipeline (an error, no task with
  both classes, a non-finite or grossly inverted score), not on poor learning; a briefly trained
  model on a small test part can score below chance (bbbp_nfp's quick tier measured 0.31).
"""
from reproductions.chem._molnet import CHEMPROP_OLD, molnet_recipe, moleculenet_target
from reproductions.spec import Tier

RECIPE = molnet_recipe("bbbp", "ggnn")

REPRODUCTION = RECIPE.reproduction(
    name="chem/bbbp_ggnn",
    task="BBBP blood-brain barrier penetration, GGNN",
    target=moleculenet_target(0.69, 0.009, "test_roc_auc",
                              "BBBP results (scaffold split), row GC, test ROC-AUC",
                              CHEMPROP_OLD),
    tiers={"quick": Tier(budget=10, bound=0.2, options={"num_data": 400},
                         note="pipeline check: 400 molecules, 10 epochs, test ROC-AUC >= 0.2"),
           "full": Tier(budget=50, note="50 epochs on the whole dataset")},
)
