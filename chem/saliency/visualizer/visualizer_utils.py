"""Saliency scalers (to [-1, 1], [0, 1] or unit sum), the red-white-blue color map, and matplotlib output."""
from logging import getLogger

from kusari import backend
from kusari.utils.atomic_write import atomic_path


def red_blue_cmap(x: float) -> tuple:
    """The RGB color of a saliency in [-1, 1]: white at 0, red towards 1, blue towards -1.

    Parameters
    ----------
    x : float
        A scaled saliency.

    Returns
    -------
    tuple of 3 floats
        R, G, B in [0, 1].
    """
    x = float(x)
    if x > 0:
        return 1., 1. - x, 1. - x
    return 1. + x, 1. + x, 1.


def min_max_scaler(saliency, logger=None):
    """``saliency`` mapped linearly onto [0, 1] (zeros when it is constant).

    Parameters
    ----------
    saliency : array, any shape

    Returns
    -------
    array
        Of ``saliency``'s shape.
    """
    xp = backend.get_array_module(saliency)
    maxv = xp.max(saliency)
    minv = xp.min(saliency)
    if maxv == minv:
        (logger or getLogger(__name__)).info("min_max_scaler: the saliency is constant; returning zeros")
        return xp.zeros_like(saliency)
    return (saliency - minv) / (maxv - minv)


def abs_max_scaler(saliency, logger=None):
    """``saliency`` divided by its largest absolute value, so in [-1, 1] (zeros when all are 0).

    Parameters
    ----------
    saliency : array, any shape

    Returns
    -------
    array
        Of ``saliency``'s shape.
    """
    xp = backend.get_array_module(saliency)
    maxv = xp.max(xp.abs(saliency))
    if maxv <= 0:
        (logger or getLogger(__name__)).info("abs_max_scaler: the saliency is all 0")
        return xp.zeros_like(saliency)
    return saliency / maxv


def normalize_scaler(saliency, axis=None, logger=None):
    """``saliency`` divided by the sum of its absolute values over ``axis`` (zeros where that sum is 0).

    Parameters
    ----------
    saliency : array, any shape
        Expected non-negative (a warning is logged otherwise).
    axis : int, tuple of int or None
        The axes summed; None sums everything.

    Returns
    -------
    array
        Of ``saliency``'s shape.
    """
    xp = backend.get_array_module(saliency)
    logger = logger or getLogger(__name__)
    if xp.any(saliency < 0):
        logger.warning("normalize_scaler: the saliency has negative values")
    vsum = xp.sum(xp.abs(saliency), axis=axis, keepdims=True)
    if xp.all(vsum <= 0):
        logger.info("normalize_scaler: the saliency is all 0")
        return xp.zeros_like(saliency)
    # sums of 0 (all-zero slices along axis) stay 0 instead of 0 / 0
    return xp.where(vsum > 0, saliency / xp.where(vsum > 0, vsum, 1), 0)


def _pyplot():
    try:
        import matplotlib.pyplot as plt
    except ImportError as e:
        raise ImportError("kusari.chem.saliency.visualizer: drawing tables and images needs matplotlib "
                          "(pip install matplotlib)") from e
    return plt


def _save_or_show(plt, fig, save_filepath, bbox_inches) -> None:
    """Write ``fig`` to ``save_filepath`` (atomically, in the format of its extension) or show it."""
    if not save_filepath:
        plt.show()
        return
    try:
        with atomic_path(save_filepath) as tmp:
            fig.savefig(tmp, bbox_inches=bbox_inches)
    finally:
        plt.close(fig)
