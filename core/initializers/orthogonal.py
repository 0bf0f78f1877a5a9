"""Orthogonal initializer: rows or columns of the flattened weight are orthonormal, times ``scale``."""
import numpy

from kusari import backend, utils
from kusari.initializer import Initializer
from kusari.initializers import _random

_MODES = ("auto", "projection", "embedding", "basis")


class Orthogonal(Initializer):
    """Fill an array of shape (out, *in) so that its (out, prod(in)) matrix is ``scale`` times orthonormal.

    Parameters
    ----------
    scale : float
    dtype : numpy dtype, optional
    mode : {'auto', 'projection', 'embedding', 'basis'}
        ``projection``: rows orthonormal (needs out <= in); ``embedding``: columns orthonormal
        (needs out >= in); ``basis``: square orthogonal matrix (needs out == in); ``auto``:
        whichever fits the shape.
    rng : numpy RandomState or Generator, optional
        Host generator of the Gaussian matrix that is orthogonalized; default ``numpy.random``.
    """

    def __init__(self, scale=1.1, dtype=None, mode="auto", rng=None):
        if mode not in _MODES:
            raise ValueError(f"Orthogonal: mode must be one of {_MODES}, got {mode!r}")
        self.scale = scale
        self.mode = mode
        self.rng = rng
        super().__init__(dtype)

    def __call__(self, array):
        _random.check_dtype("Orthogonal", self, array)
        if array.ndim == 0:
            raise ValueError("Orthogonal: cannot initialize a 0-dimensional array")
        rows, cols = array.shape[0], utils.size_of_shape(array.shape[1:])
        needed = {"projection": rows <= cols, "embedding": rows >= cols, "basis": rows == cols,
                  "auto": True}[self.mode]
        if not needed:
            raise ValueError(f"Orthogonal: mode {self.mode!r} cannot fill an array of shape "
                             f"{array.shape} (flattened to {(rows, cols)})")
        rng = numpy.random if self.rng is None else self.rng
        tall = rng.normal(size=(max(rows, cols), min(rows, cols)))
        q, r = numpy.linalg.qr(tall)
        q *= numpy.sign(numpy.diag(r))  # makes the distribution uniform over orthogonal matrices
        if rows < cols:
            q = q.T
        value = (self.scale * q).reshape(array.shape).astype(array.dtype)
        array[...] = backend.get_device_from_array(array).send(value)
