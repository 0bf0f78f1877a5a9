"""kusari.distributed: ChainerMN's API (``import kusari.distributed as chainermn``) on MPI and NCCL.

Importing it needs no MPI; :func:`create_communicator` imports mpi4py. See docs/distributed.md.
"""
from kusari.distributed import communicators  # NOQA
from kusari.distributed import datasets  # NOQA
from kusari.distributed import extensions  # NOQA
from kusari.distributed import functions  # NOQA
from kusari.distributed import global_except_hook  # NOQA
from kusari.distributed import iterators  # NOQA
from kusari.distributed import links  # NOQA
from kusari.distributed import optimizers  # NOQA
from kusari.distributed.communicators import CollectiveTimeoutError, CommunicatorBase, create_communicator  # NOQA
from kusari.distributed.datasets import DataSizeError, create_empty_dataset, scatter_dataset, scatter_index  # NOQA
from kusari.distributed.extensions import (GenericMultiNodeEvaluator, create_multi_node_checkpointer,  # NOQA
                                          create_multi_node_evaluator)
from kusari.distributed.links import MultiNodeChainList  # NOQA
from kusari.distributed.optimizers import create_multi_node_optimizer  # NOQA
