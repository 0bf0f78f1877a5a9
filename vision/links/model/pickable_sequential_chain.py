"""PickableSequentialChain: a sequential chain whose forward returns the layers named in ``pick``
(ChainerCV's chainercv.links.PickableSequentialChain)."""
import kusari


class PickableSequentialChain(kusari.Chain):
    """A chain that calls the callables registered in ``init_scope`` in order of registration.

    Every callable assigned inside ``init_scope`` (a Link, which also becomes a child link, or a
    function) is a layer; ``layer_names`` lists them in order. ``forward(x)`` runs the layers up
    to the last one that ``pick`` names and returns:

    - the last layer's output when ``pick`` is None,
    - that layer's output when ``pick`` is a str,
    - a tuple of outputs, in ``pick``'s order, when ``pick`` is an iterable of str.

    ``remove_unused()`` deletes the layers after the last picked one (their parameters too).

    Examples
    --------
    >>> import numpy
    >>> import kusari.functions as F
    >>> import kusari.links as L
    >>> model = PickableSequentialChain()
    >>> with model.init_scope():
    ...     model.l1 = L.Linear(3, 4)
    ...     model.l1_relu = F.relu
    ...     model.l2 = L.Linear(4, 2)
    >>> model.layer_names
    ['l1', 'l1_relu', 'l2']
    >>> model.pick = ('l2', 'l1_relu')
    >>> l2, l1_relu = model(numpy.ones((5, 3), numpy.float32))
    >>> l2.shape, l1_relu.shape
    ((5, 2), (5, 4))
    """

    def __init__(self):
        super().__init__()
        self.layer_names = []
        self.pick = None

    def __setattr__(self, name, value):
        super().__setattr__(name, value)
        if self.within_init_scope and callable(value) and name not in self.layer_names:
            self.layer_names.append(name)

    def __delattr__(self, name):
        if self._pick is not None and name in self._pick:
            raise AttributeError(f"{type(self).__name__}: layer {name!r} is picked "
                                 f"(pick={self.pick!r}); it cannot be deleted")
        super().__delattr__(name)
        if name in self.layer_names:
            self.layer_names.remove(name)

    @property
    def pick(self):
        """None, a layer name, or a tuple of layer names: what ``forward`` returns."""
        if self._pick is None or self._return_tuple:
            return self._pick
        return self._pick[0]

    @pick.setter
    def pick(self, pick):
        if pick is None:
            self._pick, self._return_tuple = None, False
            return
        return_tuple = not isinstance(pick, str)
        names = tuple(pick) if return_tuple else (pick,)
        for name in names:
            if not isinstance(name, str) or name not in self.layer_names:
                raise ValueError(f"{type(self).__name__}: pick={pick!r} names {name!r}, which is "
                                 f"not a layer; layers: {', '.join(self.layer_names)}")
        self._pick, self._return_tuple = names, return_tuple

    def _last_index(self, names) -> int:
        return max(self.layer_names.index(name) for name in names)

    def remove_unused(self) -> None:
        """Delete every layer after the last picked one (nothing when ``pick`` is None)."""
        if self._pick is None:
            return
        for name in self.layer_names[self._last_index(self._pick) + 1:]:
            delattr(self, name)

    def forward(self, x):
        """Run the layers in order; return the picked outputs (see the class docstring)."""
        if not self.layer_names:
            raise ValueError(f"{type(self).__name__}: no layer is registered")
        pick = (self.layer_names[-1],) if self._pick is None else self._pick
        outputs = {}
        h = x
        for name in self.layer_names[:self._last_index(pick) + 1]:
            h = self[name](h)
            if name in pick:
                outputs[name] = h
        if self._return_tuple:
            return tuple(outputs[name] for name in pick)
        return outputs[pick[0]]

    def copy(self, mode="share"):
        copied = super().copy(mode)
        copied.layer_names = list(self.layer_names)
        return copied
