"""Array comparison with tolerances that fit the dtype."""
import numpy

from kusari import backend

_TOLERANCES = {
    numpy.dtype(numpy.float16): {"forward": (1e-3, 1e-2), "backward": (5e-3, 5e-2)},
    numpy.dtype(numpy.float32): {"forward": (1e-5, 1e-4), "backward": (1e-4, 1e-3)},
    numpy.dtype(numpy.float64): {"forward": (1e-10, 1e-8), "backward": (1e-5, 1e-4)},
}


def tolerance(dtype, kind: str = "forward") -> dict:
    """{'atol': ..., 'rtol': ...} for comparing results of ``dtype`` (``kind``: forward/backward)."""
    atol, rtol = _TOLERANCES.get(numpy.dtype(dtype), _TOLERANCES[numpy.dtype(numpy.float32)])[kind]
    return {"atol": atol, "rtol": rtol}


def assert_allclose(x, y, atol=1e-5, rtol=1e-4, verbose=True):
    """Assert elementwise closeness of arrays or Variables on any device (shapes must match)."""
    x = backend.CpuDevice().send(getattr(x, "array", x))
    y = backend.CpuDevice().send(getattr(y, "array", y))
    x = numpy.asarray(x)
    y = numpy.asarray(y)
    if x.shape != y.shape and x.ndim and y.ndim:     # a 0-d side is compared with every element, as NumPy does
        raise AssertionError(f"assert_allclose: shapes differ: {x.shape} vs {y.shape}")
    numpy.testing.assert_allclose(x, y, atol=atol, rtol=rtol, verbose=verbose)


def as_noncontiguous_array(a):
    """A non-contiguous array equal to ``a`` (a view of every other element of a larger one); None stays None.

    Arrays with fewer than two elements are returned as they are (no view of them is non-contiguous).
    """
    if a is None or a.size < 2:
        return a
    xp = backend.get_array_module(a)
    wide = xp.empty(a.shape[:-1] + (a.shape[-1] * 2,), a.dtype) if a.ndim else None
    if wide is None:
        return a
    view = wide[..., ::2]
    view[...] = a
    return view
