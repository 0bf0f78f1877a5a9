"""kusari.chem.training.extensions (Chainer Chemistry's chainer_chemistry.training.extensions).

PRCAUCEvaluator is exported here too; Chainer Chemistry 0.7.1 has it only in its module.
"""
from kusari.chem.training.extensions import batch_evaluator, prc_auc_evaluator, r2_score_evaluator, roc_auc_evaluator  # NOQA
from kusari.chem.training.extensions.batch_evaluator import BatchEvaluator  # NOQA
from kusari.chem.training.extensions.prc_auc_evaluator import PRCAUCEvaluator  # NOQA
from kusari.chem.training.extensions.r2_score_evaluator import R2ScoreEvaluator  # NOQA
from kusari.chem.training.extensions.roc_auc_evaluator import ROCAUCEvaluator  # NOQA
