"""Containers behind the replay buffers: a FIFO queue with O(1) indexing, a prioritized buffer."""
from kusari.rl.collections.prioritized import PrioritizedBuffer  # noqa: F401
from kusari.rl.collections.random_access_queue import RandomAccessQueue  # noqa: F401
