"""A FIFO queue with O(1) indexing (``collections.deque`` indexes in O(n) away from its ends)."""
from typing import Any, Iterable, Iterator, List, Optional

from kusari.rl.utils.random import sample_n_k


class RandomAccessQueue:
    """FIFO queue with amortized O(1) ``append``, ``popleft``, ``q[i]`` and ``len``.

    Items live in one list after ``head`` dead slots; the dead prefix is dropped once it outgrows
    the live part, so each item is moved O(1) times on average.

    Parameters
    ----------
    items : iterable, optional
        Initial items, oldest first.
    maxlen : int, optional
        Appending beyond it drops the oldest item; None is unbounded.
    """

    def __init__(self, items: Iterable = (), maxlen: Optional[int] = None):
        if maxlen is not None and maxlen < 0:
            raise ValueError(f"RandomAccessQueue: maxlen must be None or >= 0, got {maxlen!r}")
        self.maxlen = maxlen
        self._items: List[Any] = []
        self._head = 0
        for item in items:
            self.append(item)

    def __len__(self) -> int:
        return len(self._items) - self._head

    def __iter__(self) -> Iterator:
        return iter(self._items[self._head:])

    def _position(self, i: int) -> int:
        n = len(self)
        if not -n <= i < n:
            raise IndexError(f"RandomAccessQueue: index {i} out of range for length {n}")
        return self._head + (i % n)

    def __getitem__(self, i: int):
        return self._items[self._position(i)]

    def __setitem__(self, i: int, value) -> None:
        self._items[self._position(i)] = value

    def append(self, item) -> None:
        """Add ``item`` at the end, dropping the oldest one when ``maxlen`` is reached."""
        self._items.append(item)
        if self.maxlen is not None and len(self) > self.maxlen:
            self.popleft()

    def popleft(self):
        """Remove and return the oldest item."""
        if len(self) == 0:
            raise IndexError("RandomAccessQueue: popleft from an empty queue")
        item = self._items[self._head]
        self._items[self._head] = None  # let it be freed now
        self._head += 1
        if self._head > len(self._items) // 2:
            del self._items[:self._head]
            self._head = 0
        return item

    def sample(self, k: int) -> list:
        """``k`` distinct items drawn uniformly (NumPy's global RandomState)."""
        return self._items_at(sample_n_k(len(self), k))

    def _items_at(self, positions) -> list:
        """The items at these positions (an int array of valid ones)."""
        head, items = self._head, self._items
        return [items[head + i] for i in positions.tolist()]

    def __repr__(self):
        return f"RandomAccessQueue({list(self)!r}, maxlen={self.maxlen})"
