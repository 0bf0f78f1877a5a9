"""Containers behind the replay buffers: a FIFO queue with O(1) indexing, its variant that keeps
one-step transitions in NumPy columns, a prioritized buffer."""
from kusari.rl.collections.columnar_queue import ColumnarQueue, SampledExperiences  # noqa: F401
from kusari.rl.collections.prioritized import PrioritizedBuffer  # noqa: F401
from kusari.rl.collections.random_access_queue import RandomAccessQueue  # noqa: F401
