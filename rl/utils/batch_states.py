"""The default way to turn a list of observations into one model input."""
from typing import Any, Callable, Sequence

from kusari.dataset import concat_examples


def batch_states(states: Sequence[Any], device: Any, phi: Callable[[Any], Any]) -> Any:
    """Apply ``phi`` to each observation and stack the results along a new batch axis.

    Parameters
    ----------
    states : sequence
        ``B`` observations from an environment.
    device
        Where the batch goes: None (leave it), ``'@numpy'``, ``'@cupy:N'``, an int or a Device.
    phi : callable
        Feature extractor applied to each observation; it returns an array ``shape`` (or a tuple or
        dict of arrays).

    Returns
    -------
    An array ``(B,) + shape`` keeping the features' dtype (or a tuple / dict of such arrays).
    """
    if len(states) == 0:
        raise ValueError("batch_states: states is empty")
    return concat_examples([phi(s) for s in states], device=device)
