"""SerialIterator: reads the examples of each batch in the calling thread."""
from kusari.iterators._ordered_iterator import OrderedIterator, fetch_examples


class SerialIterator(OrderedIterator):
    """Iterates over a dataset in minibatches, reading examples in the calling thread.

    Each epoch visits every example once, in the order given by the order sampler (a fresh random
    permutation per epoch by default). A batch that crosses the end of an epoch is filled from the
    start of the next one when ``repeat`` is True; otherwise the last batch may be shorter and
    iteration stops after the first epoch.

    Parameters
    ----------
    dataset
        indexable dataset of length ``N`` (``dataset[i]`` is one example).
    batch_size : int
        examples per batch.
    repeat : bool
        loop over the dataset forever; else stop after one epoch.
    shuffle : bool
        True shuffles every epoch, False keeps index order; None (default) means
        True unless ``order_sampler`` is given.
    order_sampler : callable
        ``order_sampler(current_order, current_position)`` returns the next
        epoch's order (see :class:`kusari.iterators.OrderSampler`); needs ``shuffle=None``.

    The state (position, epoch, order, the sampler's random state) is serialized, so a resumed run
    yields the same batches as an uninterrupted one.
    """

    def __next__(self):
        state, indices = self._advance(self._state)
        if indices is None:
            raise StopIteration
        batch = fetch_examples(self.dataset, indices)
        self._commit(state)
        return batch
