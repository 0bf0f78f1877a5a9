"""Trainer extensions across ranks: evaluation, snapshots, observation averaging, persistents, early stopping."""
from kusari.distributed.extensions.multi_node_evaluator import (GenericMultiNodeEvaluator,  # NOQA
                                                                 create_multi_node_evaluator)
