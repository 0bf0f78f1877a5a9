"""Small helpers shared across kusari: array coercion, cheap input validation, shape sizes, files."""
import collections.abc as collections_abc  # NOQA  (Chainer's kusari.utils.collections_abc)
import hashlib
import os
import warnings

import numpy

from kusari import backend


_SCALARS = {}


def scalar_operand(value, x):
    """``value`` as a ufunc operand next to array ``x``: a read-only 0-d NumPy array of x's dtype.

    NumPy 2 converts a Python scalar operand to the array's dtype again at every call, which costs
    more than the arithmetic on small arrays; the 0-d array gives the same bits (the value rounded
    to x's dtype) without that. For other array types, ``value`` itself.
    """
    if type(x) is not numpy.ndarray:
        return value
    key = (value, x.dtype)
    operand = _SCALARS.get(key)
    if operand is None:
        if len(_SCALARS) >= 256:    # e.g. a learning rate that changes every step
            _SCALARS.clear()
        operand = _SCALARS[key] = numpy.array(value, x.dtype)
        operand.flags.writeable = False
    return operand


def force_array(x, dtype=None):
    """``x`` as an ndarray (NumPy turns 0-d results into scalars; this undoes that)."""
    if type(x) is numpy.ndarray or not (isinstance(x, numpy.generic) or numpy.isscalar(x)):
        if dtype is not None and x.dtype != dtype:
            return x.astype(dtype, copy=False)
        return x
    return numpy.asarray(x, dtype=dtype)


def force_type(dtype, value):
    """``value`` as a 0-d array or scalar of ``dtype``."""
    if numpy.isscalar(value):
        return dtype.type(value)
    if value.dtype != dtype:
        return value.astype(dtype, copy=False)
    return value


def size_of_shape(shape) -> int:
    """The number of elements of an array of ``shape`` (1 for ``()``)."""
    size = 1
    for s in shape:
        size *= s
    return int(size)


def kusari_home() -> str:
    """kusari's home folder: ``KUSARI_HOME``, default ``~/.kusari`` (user-expanded, not created)."""
    return os.path.expanduser(os.environ.get("KUSARI_HOME") or os.path.join("~", ".kusari"))


def file_sha256(path) -> str:
    """The hexadecimal SHA-256 of the bytes of the file at ``path``, read in 1 MiB chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def get_array_module(*args):
    return backend.get_array_module(*args)


def _describe(x) -> str:
    return f"shape={tuple(x.shape)}, dtype={x.dtype}"


def _invalid(message: str):
    """Raise ``type_check.InvalidType`` (a ValueError and a TypeError) with ``message``."""
    from kusari.utils.type_check import InvalidType
    raise InvalidType(None, None, message)


def check_float(fname: str, argname: str, x) -> None:
    """Raise ``InvalidType`` (a TypeError) unless ``x`` (an array) has a floating dtype."""
    if x.dtype.kind != "f":
        _invalid(f"{fname}: {argname} must be a floating-point array, got dtype {x.dtype} "
                 f"({_describe(x)}); cast it with F.cast or .astype(numpy.float32)")


def check_same_dtype(fname: str, **arrays) -> None:
    """Raise ``InvalidType`` (a TypeError) if the given arrays do not share one dtype (None entries are skipped)."""
    items = [(k, v) for k, v in arrays.items() if v is not None]
    if len({v.dtype for _, v in items}) > 1:
        desc = ", ".join(f"{k}.dtype={v.dtype}" for k, v in items)
        _invalid(f"{fname}: dtypes must match ({desc}); cast explicitly (F.cast(x, dtype) or "
                 f"array.astype(dtype))")


def _cast_floats(dtype, xs) -> tuple:
    """``xs`` with each float array or Variable not of float ``dtype`` cast to it by ``F.cast``, whose
    gradient comes back in the operand's own dtype; the rest (None, ints, non-arrays) as they are."""
    def other(x):
        d = getattr(x, "dtype", None)  # None, or something the op's own checks refuse
        return d is not None and d != dtype and d.kind == "f"
    if not any(other(x) for x in xs):
        return xs
    from kusari.functions.array.cast import cast
    return tuple(cast(x, dtype) if other(x) else x for x in xs)


def cast_like(x, *params) -> tuple:
    """``params`` (Variables, arrays or None) with each float one cast to the float dtype of ``x``.

    Chainer's rule for mixed float dtypes, in one place: an op with parameters computes in its input's
    dtype, so its output keeps x's dtype, and each parameter's gradient comes back in the parameter's
    own dtype (the cast is ``F.cast``). When ``x`` has no float dtype (an int array, None), or a
    parameter is not float, they are left for the op's own checks to refuse. Returns a tuple.
    """
    dtype = getattr(x, "dtype", None)
    for p in params:   # the common case, one dtype, costs this loop only (ops like linear are hot)
        d = getattr(p, "dtype", None)
        if d is not None and d is not dtype and d != dtype:
            break
    else:
        return params
    if dtype is None or dtype.kind != "f":
        return params
    return _cast_floats(dtype, params)


def promote_floats(a, b) -> tuple:
    """``(a, b)`` in their promoted dtype when both are float (each gradient in its own dtype, as
    ``cast_like``): Chainer's and NumPy's rule for a product of two inputs. Otherwise as they are."""
    da, db = getattr(a, "dtype", None), getattr(b, "dtype", None)
    if da is None or db is None or da == db or da.kind != "f" or db.kind != "f":
        return a, b
    return _cast_floats(numpy.promote_types(da, db), (a, b))


def check_ndim(fname: str, argname: str, x, ndim) -> None:
    """Raise ``InvalidType`` (a ValueError) unless ``x.ndim`` equals ``ndim`` (an int) or lies in ``ndim`` (a range/tuple)."""
    ok = x.ndim == ndim if isinstance(ndim, int) else x.ndim in ndim
    if not ok:
        want = ndim if isinstance(ndim, int) else " or ".join(map(str, ndim))
        _invalid(f"{fname}: {argname} must be {want}-dimensional, got {x.ndim} ({_describe(x)})")


def check_same_shape(fname: str, **arrays) -> None:
    """Raise ``InvalidType`` (a ValueError) if the given arrays' shapes differ (None entries are skipped)."""
    items = [(k, v) for k, v in arrays.items() if v is not None]
    if len({tuple(v.shape) for _, v in items}) > 1:
        desc = ", ".join(f"{k}.shape={tuple(v.shape)}" for k, v in items)
        _invalid(f"{fname}: shapes must match ({desc})")


def normalize_axis(fname: str, axis, ndim: int):
    """``axis`` (None, int or tuple of ints) as a sorted tuple of non-negative ints, validated against
    ``ndim`` (``InvalidType``, a ValueError, when out of bounds or repeated; TypeError for a list or
    a non-int entry)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (int, numpy.integer)):
        axes = (axis,)
    elif isinstance(axis, tuple):
        axes = axis
    else:   # as NumPy and Chainer: a list is not an axis
        raise TypeError(f"{fname}: axis must be None, an int or a tuple of ints, got {axis!r}")
    out = []
    for a in axes:
        if isinstance(a, bool) or not isinstance(a, (int, numpy.integer)):
            raise TypeError(f"{fname}: axis must be None, an int or a tuple of ints, got {axis!r}")
        if not -ndim <= a < ndim:
            _invalid(f"{fname}: axis {a} is out of bounds for an array of dimension {ndim}")
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        _invalid(f"{fname}: duplicate value in axis {axis}")
    return tuple(sorted(out))


from kusari.utils.sparse import CooMatrix, get_order, to_coo  # NOQA  (after the helpers it imports)
from kusari.utils.walker_alias import WalkerAlias  # NOQA


def experimental(api_name: str) -> None:
    """Warn (FutureWarning) that ``api_name`` is experimental, unless ``kusari.disable_experimental_feature_warning``."""
    import kusari
    if not kusari.disable_experimental_feature_warning:
        warnings.warn(f"{api_name} is experimental. The interface can change in the future.", FutureWarning,
                      stacklevel=2)
