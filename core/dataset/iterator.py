"""Iterator: the base of dataset iterators, which yield minibatches (lists of examples)."""


class Iterator:
    """Base of dataset iterators: ``next(it)`` returns a list of examples.

    Implementations provide ``batch_size``, ``epoch`` (completed sweeps), ``epoch_detail`` (e.g. 2.5
    halfway through the third sweep), ``previous_epoch_detail`` (None before the first batch) and
    ``is_new_epoch``, and serialize the state that changes while iterating.
    """

    def __iter__(self):
        return self

    def __next__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __next__")

    def next(self):
        """Same as ``next(self)``."""
        return self.__next__()

    def finalize(self):
        """Release resources (worker threads or processes); the iterator is unusable afterwards."""

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_value, traceback):
        self.finalize()

    def serialize(self, serializer):
        """Save or load the iteration state (position, epoch, order, ...) through ``serializer``."""
