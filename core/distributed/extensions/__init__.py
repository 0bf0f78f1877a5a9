"""Trainer extensions across ranks: evaluation, snapshots, observation averaging, persistents, early stopping."""
from kusari.distributed.extensions._multi_node_snapshot import multi_node_snapshot  # NOQA
from kusari.distributed.extensions.allreduce_persistent import AllreducePersistent  # NOQA
from kusari.distributed.extensions.checkpoint import create_multi_node_checkpointer  # NOQA
from kusari.distributed.extensions.multi_node_early_stopping_trigger import MultiNodeEarlyStoppingTrigger  # NOQA
from kusari.distributed.extensions.multi_node_evaluator import (GenericMultiNodeEvaluator,  # NOQA
                                                                 create_multi_node_evaluator)
from kusari.distributed.extensions.observation_aggregator import ObservationAggregator  # NOQA
