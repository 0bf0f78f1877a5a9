"""GetterDataset: a sliceable dataset defined by getter functions, each returning one or several values."""
from typing import Callable

from kusari.vision.chainer_experimental.datasets.sliceable.sliceable_dataset import (SliceableDataset,
                                                                                   _as_key_indices,
                                                                                   _is_iterable)


class GetterDataset(SliceableDataset):
    """A sliceable dataset whose values come from getters registered with :meth:`add_getter`.

    A getter ``getter(i)`` returns the value of one key, or a tuple of the values of several keys
    (e.g. ``('bbox', 'label')`` read from one annotation file). Reading some keys of an example calls
    only the getters that provide them, each at most once. Assigning ``keys`` (a subset of names or
    positions, reordered at will; a single name for bare values) chooses what examples return.

    Examples
    --------
    >>> class Squares(GetterDataset):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.add_getter('x', lambda i: i)
    ...         self.add_getter(('square', 'cube'), lambda i: (i ** 2, i ** 3))
    ...     def __len__(self):
    ...         return 4
    >>> dataset = Squares()
    >>> dataset.keys, dataset[2]
    (('x', 'square', 'cube'), (2, 4, 8))
    >>> list(dataset.slice[1:, 'cube'])        # the getter of 'x' is never called
    [1, 8, 27]
    """

    def __init__(self):
        self._keys = []        # (name, getter position, position in the getter's tuple or None)
        self._getters = []
        self._return_tuple = True

    def __len__(self):
        raise NotImplementedError(f"{type(self).__name__} must implement __len__")

    @property
    def keys(self):
        if self._return_tuple:
            return tuple(name for name, _, _ in self._keys)
        return self._keys[0][0]

    @keys.setter
    def keys(self, keys):
        chosen = _as_key_indices(keys, self.keys, f"{type(self).__name__}.keys")
        self._keys = [self._keys[k] for k in chosen]
        self._return_tuple = _is_iterable(keys)

    def add_getter(self, keys, getter: Callable) -> None:
        """Register ``getter(i)``, which returns the value of ``keys`` (one name) or a tuple of the values
        of ``keys`` (a tuple or list of names), for example ``i``."""
        self._getters.append(getter)
        position = len(self._getters) - 1
        if _is_iterable(keys):
            self._keys.extend((name, position, k) for k, name in enumerate(keys))
        else:
            self._keys.append((keys, position, None))

    def _call_getter(self, position: int, index):
        """``getter(index)``; a ValueError or OSError it raises (a file of the example that cannot be
        read or parsed) is raised again, of the same type, with the dataset's class and the index
        in front, unless its message names the class already."""
        try:
            return self._getters[position](index)
        except (ValueError, OSError) as e:
            name = type(self).__name__
            if type(e) not in (ValueError, OSError, FileNotFoundError) or str(e).startswith(name):
                raise
            raise type(e)(f"{name}[{index}]: {e}") from e

    def get_example_by_keys(self, index, key_indices: tuple) -> tuple:
        results = {}
        example = []
        for key_index in key_indices:
            _, position, k = self._keys[key_index]
            if position not in results:
                results[position] = self._call_getter(position, index)
            example.append(results[position] if k is None else results[position][k])
        return tuple(example)
