"""A FIFO buffer sampled in proportion to per-item priorities, on a sum tree and a min tree."""
import operator
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy


class _SegmentTree:
    """Complete binary tree over ``size`` leaves (a power of 2); each inner node is op(children).

    Stored as a flat list (node ``i`` has children ``2i`` and ``2i + 1``, the root is node 1,
    leaves are nodes ``size .. 2 size - 1``): Python floats are faster than NumPy scalars for the
    one-leaf updates that dominate. Empty leaves hold ``identity``.
    """

    def __init__(self, size: int, op: Callable[[float, float], float], identity: float):
        self.size = size
        self.op = op
        self.identity = identity
        self.nodes = [identity] * (2 * size)

    def __getitem__(self, leaf: int) -> float:
        return self.nodes[self.size + leaf]

    def __setitem__(self, leaf: int, value: float) -> None:
        nodes, op = self.nodes, self.op
        i = self.size + leaf
        nodes[i] = value
        i //= 2
        while i:
            nodes[i] = op(nodes[2 * i], nodes[2 * i + 1])
            i //= 2

    def fill(self, values: Sequence[float]) -> None:
        """Set leaves ``0 .. len(values) - 1`` to ``values``, the others to ``identity``, in O(size)."""
        nodes, op, size = self.nodes, self.op, self.size
        nodes[size:] = list(values) + [self.identity] * (size - len(values))
        for i in range(size - 1, 0, -1):
            nodes[i] = op(nodes[2 * i], nodes[2 * i + 1])

    @property
    def root(self) -> float:
        return self.nodes[1]

    def find_prefix(self, mass: float) -> int:
        """The leaf where the running sum of leaves passes ``mass`` (a sum tree, ``0 <= mass < root``)."""
        nodes, i = self.nodes, 1
        while i < self.size:
            left = 2 * i
            # the right test guards against rounding sending a draw near the total to an empty leaf
            if mass < nodes[left] or nodes[left + 1] <= 0:
                i = left
            else:
                mass -= nodes[left]
                i = left + 1
        return i - self.size


class PrioritizedBuffer:
    """FIFO buffer sampled with probability proportional to each item's priority.

    Items sit in a ring of slots (a power of 2, doubled when an unbounded buffer fills it); a sum
    tree over the slots' priorities draws an item in O(log n), a min tree gives the smallest
    priority in O(1). A new item gets the largest priority set so far, so it is likely sampled once.

    Parameters
    ----------
    capacity : int, optional
        Appending beyond it evicts the oldest item; None is unbounded.
    initial_max_priority : float
        Priority of items appended before any priority was set.
    """

    def __init__(self, capacity: Optional[int] = None, initial_max_priority: float = 1.0):
        if capacity is not None and capacity < 1:
            raise ValueError(f"PrioritizedBuffer: capacity must be None or >= 1, got {capacity!r}")
        self.capacity = capacity
        self.max_priority = initial_max_priority
        self._slots: List[Any] = [None]
        self._head = 0
        self._len = 0
        self._sums = _SegmentTree(1, operator.add, 0.0)
        self._mins = _SegmentTree(1, min, float("inf"))
        self._sampled: List[Tuple[int, Any]] = []

    def __len__(self) -> int:
        return self._len

    def _slot(self, i: int) -> int:
        return (self._head + i) % len(self._slots)

    def __getitem__(self, i: int):
        if not 0 <= i < self._len:
            raise IndexError(f"PrioritizedBuffer: index {i} out of range for length {self._len}")
        return self._slots[self._slot(i)]

    def __iter__(self):
        return (self._slots[self._slot(i)] for i in range(self._len))

    def priorities(self) -> List[float]:
        """The items' priorities, oldest first."""
        return [self._sums[self._slot(i)] for i in range(self._len)]

    def _set(self, slot: int, item, priority: float) -> None:
        self._slots[slot] = item
        self._sums[slot] = priority
        self._mins[slot] = priority

    def _grow(self) -> None:
        items, priorities = list(self), self.priorities()
        size = 2 * len(self._slots)
        self._slots = items + [None] * (size - len(items))
        self._head = 0
        self._sums = _SegmentTree(size, operator.add, 0.0)
        self._mins = _SegmentTree(size, min, float("inf"))
        self._sums.fill(priorities)
        self._mins.fill(priorities)

    def append(self, item, priority: Optional[float] = None) -> None:
        """Add ``item`` (evicting the oldest at capacity) with ``priority`` (default: the largest so far)."""
        if priority is not None and not priority > 0:
            raise ValueError(f"PrioritizedBuffer.append: priority must be > 0, got {priority!r}")
        if self.capacity is not None and self._len == self.capacity:
            self.popleft()
        if self._len == len(self._slots):
            self._grow()
        self._set(self._slot(self._len), item, self.max_priority if priority is None else priority)
        self._len += 1

    def popleft(self):
        """Remove and return the oldest item."""
        if self._len == 0:
            raise IndexError("PrioritizedBuffer: popleft from an empty buffer")
        item = self._slots[self._head]
        self._slots[self._head] = None
        self._sums[self._head] = self._sums.identity
        self._mins[self._head] = self._mins.identity
        self._head = (self._head + 1) % len(self._slots)
        self._len -= 1
        return item

    def sample(self, n: int) -> Tuple[list, List[float], float]:
        """Draw ``n`` distinct items, each draw in proportion to the priorities of those not yet drawn.

        Parameters
        ----------
        n : int
            How many, ``0 <= n <= len(self)``.

        Returns
        -------
        tuple
            ``(items, probabilities, min_probability)``: ``probabilities[j]`` is item ``j``'s
            priority over the total priority, ``min_probability`` the smallest priority over it.
        """
        if not 0 <= n <= self._len:
            raise ValueError(f"PrioritizedBuffer.sample: n={n} but the buffer holds {self._len} items")
        total = self._sums.root
        drawn = []
        for _ in range(n):
            slot = self._sums.find_prefix(numpy.random.uniform(0.0, self._sums.root))
            drawn.append((slot, self._sums[slot]))
            self._sums[slot] = 0.0  # no slot twice in one batch
        for slot, priority in drawn:
            self._sums[slot] = priority
        self._sampled = [(slot, self._slots[slot]) for slot, _ in drawn]
        return ([item for _, item in self._sampled], [p / total for _, p in drawn],
                self._mins.root / total)

    def set_last_priority(self, priorities: Sequence[float]) -> None:
        """Give the items of the last :meth:`sample` new priorities (> 0), in the order sampled.

        Items evicted (or moved by growth) since that sample are left out.
        """
        if not self._sampled:
            raise ValueError("PrioritizedBuffer.set_last_priority: nothing sampled since the last update")
        if len(priorities) != len(self._sampled):
            raise ValueError(f"PrioritizedBuffer.set_last_priority: got {len(priorities)} priorities "
                             f"for {len(self._sampled)} sampled items")
        if not all(p > 0 for p in priorities):
            raise ValueError(f"PrioritizedBuffer.set_last_priority: priorities must be > 0, got {list(priorities)}")
        for (slot, item), p in zip(self._sampled, priorities):
            if self._slots[slot] is item:
                p = float(p)
                self._sums[slot] = p
                self._mins[slot] = p
                self.max_priority = max(self.max_priority, p)
        self._sampled = []
