"""Differentiable communication: point to point (send, recv), collectives, pseudo_connect."""
from kusari.distributed.functions.collective_communication import (allgather, allreduce, alltoall,  # NOQA
                                                                    bcast, gather, scatter)
from kusari.distributed.functions.point_to_point_communication import recv, send  # NOQA
from kusari.distributed.functions.pseudo_connect import pseudo_connect  # NOQA
