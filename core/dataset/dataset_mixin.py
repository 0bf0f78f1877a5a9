"""DatasetMixin: indexing by int, slice or an index array on top of ``get_example(i)``."""


class DatasetMixin:
    """Implements ``dataset[index]`` from ``get_example(i)``; subclasses also define ``__len__``.

    ``dataset[i]`` returns ``get_example(i)``; ``dataset[a:b:c]`` and ``dataset[[i, j, ...]]`` (a list
    or 1-D integer array) return a list of examples.
    """

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, list) or (hasattr(index, "ndim") and index.ndim == 1):
            return [self.get_example(int(i)) for i in index]
        return self.get_example(index)

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    def get_example(self, i):
        """The ``i``-th example; raises IndexError when ``i`` is out of range."""
        raise NotImplementedError(f"{type(self).__name__} must implement get_example(i)")
