"""megnet_softplus: MEGNet's softplus shifted to pass through 0, written in a form that never overflows."""
import kusari.functions as F


def megnet_softplus(x):
    """MEGNet's activation ``log(0.5 * exp(x) + 0.5)``, computed as
    ``relu(x) + log(0.5 * exp(-|x|) + 0.5)`` so that ``exp`` only sees non-positive values.

    Parameters
    ----------
    x : Variable or array, any shape, float dtype

    Returns
    -------
    Variable
        Same shape and dtype as ``x``.
    """
    return F.relu(x) + F.log(0.5 * F.exp(-F.absolute(x)) + 0.5)
