"""to_factorized_noisy: turn every Linear inside a network into a FactorizedNoisyLinear (NoisyNet)."""
import kusari
import kusari.links as L
from kusari.rl.nn.noisy_linear import FactorizedNoisyLinear


def to_factorized_noisy(link: kusari.Link, *args, **kwargs) -> None:
    """Replace, in place and at any depth, each ``Linear`` child of ``link`` by
    ``FactorizedNoisyLinear(that_linear, *args, **kwargs)`` (e.g. ``sigma_scale=0.5``).

    As PFRL's ``pfrl.nn.to_factorized_noisy``: other links (convolutions, ...) stay, and the new
    layers draw fresh parameters (only the old ones' sizes are kept). Set up the optimizer after
    this call: the replaced parameters are gone. ``link`` itself is not replaced (pass its parent).

    Parameters
    ----------
    link : Chain, ChainList or Sequential
    *args, **kwargs : FactorizedNoisyLinear's arguments after ``mu_link``
    """
    if not isinstance(link, kusari.Link):
        raise TypeError(f"to_factorized_noisy: link must be a Link, got {type(link).__name__}")
    if isinstance(link, L.Linear):
        raise TypeError("to_factorized_noisy: link is itself a Linear, which cannot be replaced in "
                        "place; use FactorizedNoisyLinear(link) instead")
    if isinstance(link, FactorizedNoisyLinear):
        return  # already noisy (PFRL would replace its mu and sigma layers too)
    if isinstance(link, kusari.ChainList):
        # a Sequential also holds functions; its positions count them, as its __setitem__ does
        for index, child in enumerate(list(link)):
            if isinstance(child, L.Linear):
                link[index] = FactorizedNoisyLinear(child, *args, **kwargs)
            elif isinstance(child, kusari.Link):
                to_factorized_noisy(child, *args, **kwargs)
    elif isinstance(link, kusari.Chain):
        for child in list(link.children()):
            if isinstance(child, L.Linear):
                with link.init_scope():
                    setattr(link, child.name, FactorizedNoisyLinear(child, *args, **kwargs))
            else:
                to_factorized_noisy(child, *args, **kwargs)
