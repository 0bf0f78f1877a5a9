"""Sequential: apply layers (Links or plain callables) one after another."""
from kusari.link import ChainList, Link, structure_changed


class Sequential(ChainList):
    """``Sequential(l1, F.relu, l2)(x) == l2(F.relu(l1(x)))``; only Links hold parameters."""

    def __init__(self, *layers):
        super().__init__()
        object.__setattr__(self, "_layers", [])
        for layer in layers:
            self.append(layer)

    def _sync(self):
        self._children[:] = [layer for layer in self._layers if isinstance(layer, Link)]
        structure_changed()
        for i, child in enumerate(self._children):
            child.name = str(i)

    def __len__(self):
        return len(self._layers)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return Sequential(*self._layers[index])
        return self._layers[index]

    def __iter__(self):
        return iter(self._layers)

    def __setitem__(self, index, layer):
        self._check(layer)
        self._layers[index] = layer
        self._sync()

    def __delitem__(self, index):
        del self._layers[index]
        self._sync()

    @staticmethod
    def _check(layer):
        if not callable(layer):
            raise TypeError(f"Sequential: layers must be callable, got {type(layer).__name__}")

    def append(self, layer):
        self._check(layer)
        self._layers.append(layer)
        self._sync()

    add_link = append

    def insert(self, index, layer):
        self._check(layer)
        self._layers.insert(index, layer)
        self._sync()

    def extend(self, sequential):
        for layer in sequential:
            self.append(layer)

    def pop(self, index=-1):
        layer = self._layers.pop(index)
        self._sync()
        return layer

    def remove(self, layer):
        self._layers.remove(layer)
        self._sync()

    def count_by_layer_type(self, type_name):
        return sum(1 for layer in self._layers if type(layer).__name__ == type_name)

    def flatten(self):
        """A Sequential with nested Sequentials expanded in place."""
        flat = []
        for layer in self._layers:
            flat.extend(layer.flatten()._layers if isinstance(layer, Sequential) else [layer])
        return Sequential(*flat)

    def copy(self, mode="share"):
        ret = super().copy(mode)
        copies = iter(ret._children)
        object.__setattr__(ret, "_layers",
                           [next(copies) if isinstance(layer, Link) else layer for layer in self._layers])
        return ret

    def forward(self, *x):
        for layer in self._layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    def __repr__(self):
        lines = [f"  ({i}): " + repr(layer).replace("\n", "\n  ") for i, layer in enumerate(self._layers)]
        return "Sequential(\n" + "\n".join(lines) + "\n)" if lines else "Sequential()"
