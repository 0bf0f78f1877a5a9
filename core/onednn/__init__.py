"""oneDNN's CPU kernels behind kusari's convolution, pooling and batch normalization (the ``[onednn]`` extra).

The ops call their NumPy kernels, and those ask :func:`library_for` first: when it returns the
library, a oneDNN primitive computes the result; when it returns None (no library, another
dtype, ``config.use_onednn == 'never'``) or the primitive is not offered for the shapes, NumPy
does. Nothing outside the kernels sees oneDNN.

``config.use_onednn`` (environment: ``KUSARI_USE_ONEDNN``) is ``'auto'`` (default: oneDNN where
it is measured to be faster than NumPy), ``'always'`` (oneDNN for every case it implements) or
``'never'``.
"""
from __future__ import annotations

import numpy

from kusari.configuration import config

MODES = ("auto", "always", "never")


def library_for(*arrays, pays: bool = True):
    """The loaded :class:`~kusari.onednn.library.Library` if oneDNN should compute on ``arrays``, else None.

    ``arrays`` must all be non-empty float32 NumPy arrays (None entries are skipped); ``pays`` is the
    caller's judgement that oneDNN beats NumPy on them, which ``use_onednn='always'`` overrides.
    """
    mode = config.use_onednn
    if mode != "auto" and mode != "always":
        if mode == "never":
            return None
        raise ValueError(f"config.use_onednn must be one of {MODES}, got {mode!r}")
    if mode == "auto" and not pays:
        return None
    for a in arrays:
        if a is not None and (not isinstance(a, numpy.ndarray) or a.dtype != numpy.float32 or not a.size):
            return None
    from kusari.onednn import library
    return library.load()


def available() -> bool:
    """Whether a usable oneDNN library is present (it is loaded by this call if it was not)."""
    from kusari.onednn import library
    return library.load() is not None
