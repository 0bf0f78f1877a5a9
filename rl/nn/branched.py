"""Branched: feeds one input to several Links and returns their outputs as a tuple."""
import kusari


class Branched(kusari.Chain):
    """``Branched(a, b)(x) == (a(x), b(x))`` (e.g. a policy head and a value head).

    The branches live in ``child_modules`` (PFRL's attribute name), so their parameters are
    named ``/child_modules/0/...``, ``/child_modules/1/...``.

    Parameters
    ----------
    *modules : Links
    """

    def __init__(self, *modules):
        super().__init__()
        for i, m in enumerate(modules):
            if not isinstance(m, kusari.Link):
                raise TypeError(f"Branched: module {i} must be a Link (wrap plain callables in "
                                f"kusari.rl.nn.Lambda), got {type(m).__name__}")
        with self.init_scope():
            self.child_modules = kusari.ChainList(*modules)

    def forward(self, *args, **kwargs) -> tuple:
        """Every branch's output for the same arguments, in order."""
        return tuple(m(*args, **kwargs) for m in self.child_modules)
