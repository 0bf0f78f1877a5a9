"""unzip: an iterable of tuples as a tuple of lazy iterators (the inverse of ``zip``)."""
import collections


class _Column:
    """One iterator of ``unzip``: values read from the source for the other columns wait in their
    queues; a column that is garbage-collected drops its queue, so nothing is kept for it."""

    def __init__(self, source, queues, index):
        self._source = source
        self._queues = queues
        self._index = index

    def __del__(self):
        self._queues[self._index] = None

    def __iter__(self):
        return self

    def __next__(self):
        queue = self._queues[self._index]
        if not queue:
            values = next(self._source)
            for other, value in zip(self._queues, values):
                if other is not None:
                    other.append(value)
        return queue.popleft()


def unzip(iterable):
    """Turn an iterable of equal-length tuples into a tuple of iterators, one per position.

    The source is read lazily, once: ``a, b = unzip(pairs)`` lets ``next(a)`` run ahead of ``b``
    (values for ``b`` are buffered until read). Delete an iterator you do not need to stop its
    values from being buffered.

    Parameters
    ----------
    iterable : iterable of tuple
        Its first element is read at once, to learn the tuple length.

    Returns
    -------
    tuple of iterators
        The i-th yields the i-th element of each tuple.
    """
    source = iter(iterable)
    first = next(source)
    queues = [collections.deque((value,)) for value in first]
    return tuple(_Column(source, queues, i) for i in range(len(queues)))
