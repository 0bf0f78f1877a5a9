"""Iterators across ranks: one rank's batches broadcast, synchronized shuffling, a global order sharded over ranks."""
from kusari.distributed.iterators.global_order_iterator import GlobalOrderIterator  # NOQA
from kusari.distributed.iterators.multi_node_iterator import create_multi_node_iterator  # NOQA
from kusari.distributed.iterators.synchronized_iterator import create_synchronized_iterator  # NOQA
