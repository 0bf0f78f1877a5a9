"""chem/tox21_nfp: NFP on MoleculeNet's Tox21 against Wu et al., Chem. Sci. 2018.

Target: Wu et al., "MoleculeNet: a benchmark for molecular machine learning", Chem. Sci. 9, 513-530
(2018), Tox21 results (random split), row GC, test ROC-AUC: 0.829 ± 0.006; checked in chemprop's
README (its table of MoleculeNet's best models), since the paper's tables could not be read here.

NFP stands in for MoleculeNet's GC (DeepChem's graph convolution after Duvenaud et al.): the same
family, not the same model.

Tolerance 0.012: two of the paper's standard deviations over its runs (``TOLERANCE_STDS``), so the
full tier passes when the mean over 3 seeds is at least 0.817.

Recipe (:mod:`reproductions.chem._molnet`, its ``METHOD_SETTINGS``, the same on every dataset): NFP
(Duvenaud et al., 2015), width 64, 3 message-passing steps, MLP head, Adam (alpha 1e-3), batch 32;
padding atoms masked out of the readout; sigmoid cross-entropy per task, missing labels ignored;
random 80/10/10 split per seed; the predictor of the best validation epoch is scored on the test
part. Width and depth are bench.chem's (its ESOL comparison with chemprop) rather than Chainer
Chemistry's examples/molnet defaults (16 wide, 4 steps), as :mod:`reproductions.chem._molnet`
explains.

- Full tier: 30 epochs on the whole dataset, 3 seeds (three random splits).
- Quick tier (CI): the file's first 400 molecules, 10 epochs; a pipeline check that passes at a mean
  test ROC-AUC of 0.2, far below chance (0.5): it fails on a broken pipeline (an error, no task with
  both classes, a non-finite or grossly inverted score), not on poor learning; a briefly trained
  model on a small test part can score below chance (bbbp_nfp's quick tier measured 0.31).
"""
from reproductions.chem._molnet import CHEMPROP, molnet_recipe, moleculenet_target
from reproductions.spec import Tier

RECIPE = molnet_recipe("tox21", "nfp")

REPRODUCTION = RECIPE.reproduction(
    name="chem/tox21_nfp",
    task="Tox21 toxicity (12 assays), NFP",
    target=moleculenet_target(0.829, 0.006, "test_roc_auc",
                              "Tox21 results (random split), row GC, test ROC-AUC",
                              CHEMPROP),
    tiers={"quick": Tier(budget=10, bound=0.2, options={"num_data": 400},
                         note="pipeline check: 400 molecules, 10 epochs, test ROC-AUC >= 0.2"),
           "full": Tier(budget=30, note="30 epochs on the whole dataset")},
)
