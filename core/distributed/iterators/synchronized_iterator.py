"""create_synchronized_iterator: every rank's iterator draws the same shuffled orders."""
import numpy

from kusari.iterators import ShuffleOrderSampler


def create_synchronized_iterator(actual_iterator, communicator):
    """Make ``actual_iterator`` (an iterator with an ``order_sampler``, e.g. ``SerialIterator``) draw
    its orders from a seed broadcast by rank 0, so that every rank reads the same examples in the same
    order; the iterator is reset and returned."""
    seed = communicator.bcast_obj(numpy.random.randint(0, 2 ** 31) if communicator.rank == 0 else None)
    if not hasattr(actual_iterator, "order_sampler"):
        raise TypeError(f"create_synchronized_iterator: {type(actual_iterator).__name__} has no "
                        "order_sampler to synchronize")
    actual_iterator.order_sampler = ShuffleOrderSampler(numpy.random.RandomState(seed))
    actual_iterator.reset()
    return actual_iterator
