"""Parameter: a link holding one array as its only parameter ``W``."""
from kusari.link import Link
from kusari.variable import Parameter as _Parameter


class Parameter(Link):
    """A link whose single Parameter ``W`` is initialized with ``array``; calling it returns ``W``."""

    def __init__(self, array):
        super().__init__()
        with self.init_scope():
            self.W = _Parameter(array)

    def forward(self):
        """Returns the Parameter ``W`` (of ``array``'s shape)."""
        return self.W
