"""The replay buffers' file format: transitions as arrays in an ``.npz``, never a pickle.

A file holds ``index``, a JSON text (0-d unicode array) naming the buffer kind, the format
version and one entry per transition field, and these arrays, for ``N`` distinct transitions:

- ``field/<name>``: the non-None values of the field stacked, ``(N,) + shape``, in their dtype;
- ``present/<name>``: bool ``(N,)``, False where the value is None (only when some are);
- ``pytype/<name>``: uint8 ``(N,)`` for fields of Python numbers: 0 None, 1 bool, 2 int, 3 float;

plus the arrays of the buffer kind (which transitions form each stored entry, priorities, ...).
A field's values are NumPy arrays of one shape and dtype, NumPy scalars, or Python bool/int/float,
each possibly None; numeric and bool dtypes only. Anything else (tuple or dict observations,
strings, objects) is refused on save with a TypeError.

A field of Python numbers only keeps each value's type. A field of scalars holding at least one
NumPy scalar (an explorer's random action is a Python int or an int64, the greedy one an int32) is
stored in one dtype, ``numpy.result_type`` of the values' dtypes, a Python bool, int or float
counting as bool, int64 or float64 (the dtypes NumPy gives them); its values load as NumPy scalars
of that dtype. So float32 scalars stay float32 unless a float64 or a Python float is among them,
and integers take the widest integer dtype. Scalars of different families (bool, integer, float,
complex) are not mixed, nor signed and unsigned integers that no integer dtype holds both of
(int64 with uint64): either would change the values' kind.
"""
import json
import os
import zipfile
from typing import Any, Dict, List, Tuple

import numpy

from kusari.utils.atomic_write import open_for_write

FORMAT = "kusari.rl.replay_buffers"
VERSION = 1
_NUMERIC_KINDS = "biufc"
_PYTYPES = {bool: 1, int: 2, float: 3}
_FROM_PYTYPE = {1: bool, 2: int, 3: float}
_PYTHON_DTYPES = {bool: numpy.dtype(numpy.bool_), int: numpy.dtype(numpy.int64),
                  float: numpy.dtype(numpy.float64)}
_FAMILIES = {"b": "bool", "i": "integer", "u": "integer", "f": "float", "c": "complex"}
_SUPPORTED = ("supported values are NumPy arrays (numeric or bool, one shape and dtype per field), "
              "NumPy scalars, Python bool/int/float and None")


def _kind(value) -> str:
    """'none', 'python', 'scalar' or 'array'; a TypeError naming the type for anything else."""
    if value is None:
        return "none"
    if type(value) in _PYTYPES:
        return "python"
    if isinstance(value, (numpy.ndarray, numpy.generic)) and value.dtype.kind in _NUMERIC_KINDS:
        return "array" if isinstance(value, numpy.ndarray) else "scalar"
    raise TypeError(type(value).__name__)


def _field_kind(owner: str, name: str, values: List[Any]) -> str:
    """The kind a field is stored as; Python numbers among NumPy scalars make a 'scalar' field."""
    try:
        kinds = {_kind(v) for v in values} - {"none"}
    except TypeError as e:
        raise TypeError(f"{owner}: cannot save field {name!r} holding a {e}; {_SUPPORTED}") from None
    if kinds == {"python", "scalar"}:
        return "scalar"
    if len(kinds) > 1:
        raise TypeError(f"{owner}: field {name!r} mixes {sorted(kinds)} values; {_SUPPORTED}")
    return kinds.pop() if kinds else "none"


def _scalar_dtype(owner: str, name: str, values: List[Any]) -> numpy.dtype:
    """The one dtype of a field of NumPy scalars and Python numbers (see the module's docstring)."""
    dtypes = {_PYTHON_DTYPES[type(v)] if type(v) in _PYTHON_DTYPES else v.dtype
              for v in values if v is not None}
    found = sorted(str(d) for d in dtypes)
    families = {_FAMILIES[d.kind] for d in dtypes}
    if len(families) > 1:
        raise TypeError(f"{owner}: field {name!r} mixes {' and '.join(sorted(families))} scalars "
                        f"{found} (Python numbers count as bool, int64, float64); {_SUPPORTED}, "
                        "one kind of number per field")
    dtype = numpy.result_type(*dtypes)
    family = families.pop()
    if _FAMILIES[dtype.kind] != family:
        raise TypeError(f"{owner}: field {name!r} has {family} scalars {found} that no {family} "
                        f"dtype holds all of (NumPy would give {dtype})")
    return dtype


def _array_layout(owner: str, name: str, values: List[Any]) -> Tuple[numpy.dtype, Tuple[int, ...]]:
    layouts = {(v.dtype, v.shape) for v in values if v is not None}
    if len(layouts) > 1:
        found = sorted(f"{dt}{list(shape)}" for dt, shape in layouts)
        raise TypeError(f"{owner}: field {name!r} has values of several dtypes/shapes {found}; "
                        f"{_SUPPORTED}")
    return layouts.pop()


def encode_transitions(owner: str, transitions: List[dict]) -> Tuple[List[dict], Dict[str, numpy.ndarray]]:
    """Turn ``N`` transition dicts (all with the same keys) into field descriptions and arrays.

    Parameters
    ----------
    owner : str
        Name used in error messages (e.g. ``'ReplayBuffer.save'``).
    transitions : list of dict

    Returns
    -------
    tuple
        ``(fields, arrays)``: ``fields`` lists ``{'name', 'kind', 'dtype', 'shape'}`` in key order.
    """
    names = list(transitions[0]) if transitions else []
    fields, arrays = [], {}
    for t in transitions:
        if list(t) != names:
            raise ValueError(f"{owner}: every transition must have the same keys; "
                             f"found {names} and {list(t)}")
    for name in names:
        values = [t[name] for t in transitions]
        kind = _field_kind(owner, name, values)
        if kind == "none":
            fields.append({"name": name, "kind": kind, "dtype": None, "shape": None})
            continue
        present = numpy.array([v is not None for v in values])
        if kind == "python":
            codes = numpy.array([0 if v is None else _PYTYPES[type(v)] for v in values], numpy.uint8)
            dtype, shape = numpy.dtype(numpy.float64 if (codes == 3).any() else numpy.int64), ()
            arrays[f"pytype/{name}"] = codes
        else:
            dtype, shape = (_scalar_dtype(owner, name, values), ()) if kind == "scalar" else (
                _array_layout(owner, name, values))
            if not present.all():
                arrays[f"present/{name}"] = present
        filler = numpy.zeros(shape, dtype)
        try:
            arrays[f"field/{name}"] = numpy.array([filler if v is None else v for v in values], dtype)
        except OverflowError:
            raise ValueError(f"{owner}: field {name!r} holds a Python int outside the range of "
                             f"{dtype}") from None
        fields.append({"name": name, "kind": kind, "dtype": dtype.str, "shape": list(shape)})
    return fields, arrays


def decode_transitions(owner: str, filename: str, fields: List[dict], arrays: Dict[str, numpy.ndarray],
                       n: int) -> List[dict]:
    """Rebuild the ``n`` transition dicts from :func:`encode_transitions`' output, checking every array.

    Arrays come back as views of the stacked field array (dtype and shape as saved); NumPy scalars
    and Python numbers as their own types.
    """
    if not isinstance(fields, list) or not all(isinstance(f, dict) for f in fields):
        raise ValueError(f"{owner}: {filename} has a malformed field list in its index")
    columns = []
    for field in fields:
        name, kind = field.get("name"), field.get("kind")
        if kind == "none":
            columns.append((name, [None] * n))
            continue
        if kind not in ("python", "scalar", "array"):
            raise ValueError(f"{owner}: {filename} describes field {name!r} with unknown kind {kind!r}")
        shape = tuple(field.get("shape") or ())
        data = require_array(owner, filename, arrays, f"field/{name}", (n,) + shape, field.get("dtype"))
        if kind == "python":
            codes = require_array(owner, filename, arrays, f"pytype/{name}", (n,), "|u1")
            if not numpy.isin(codes, (0, 1, 2, 3)).all():
                raise ValueError(f"{owner}: {filename} has unknown codes in 'pytype/{name}'")
            column = [None if c == 0 else _FROM_PYTYPE[c](v)
                      for c, v in zip(codes.tolist(), data.tolist())]
        else:
            present = (require_array(owner, filename, arrays, f"present/{name}", (n,), "|b1")
                       if f"present/{name}" in arrays else numpy.ones(n, bool))
            pick = (lambda i: data[i, ...]) if kind == "array" else (lambda i: data[i])
            column = [pick(i) if p else None for i, p in enumerate(present.tolist())]
        columns.append((name, column))
    return [{name: column[i] for name, column in columns} for i in range(n)]


def require_array(owner: str, filename: str, arrays: Dict[str, numpy.ndarray], key: str,
                  shape: tuple, dtype) -> numpy.ndarray:
    """``arrays[key]``, checked to have ``shape`` and ``dtype`` (a NumPy dtype string or dtype)."""
    if key not in arrays:
        raise ValueError(f"{owner}: {filename} lacks the array {key!r}")
    a = arrays[key]
    try:
        expected = numpy.dtype(dtype)
    except TypeError:
        raise ValueError(f"{owner}: {filename} names an invalid dtype {dtype!r} for {key!r}") from None
    if a.dtype != expected or a.shape != tuple(shape):
        raise ValueError(f"{owner}: {filename} has {key!r} of shape {a.shape} and dtype {a.dtype}; "
                         f"expected shape {tuple(shape)} and dtype {expected}")
    return a


def save_file(filename, kind: str, index: dict, arrays: Dict[str, numpy.ndarray]) -> None:
    """Write ``arrays`` and the JSON ``index`` (plus format, version, kind) to ``filename`` atomically."""
    header = {"format": FORMAT, "version": VERSION, "kind": kind, **index}
    with open_for_write(filename) as f:
        numpy.savez(f, index=numpy.array(json.dumps(header)), **arrays)


def load_file(filename, kind: str, owner: str) -> Tuple[dict, Dict[str, numpy.ndarray]]:
    """Read a file written by :func:`save_file` for buffer ``kind``; no pickles, no object arrays.

    Returns
    -------
    tuple
        ``(index, arrays)``: the JSON index as a dict and every array, read into memory.

    Raises
    ------
    ValueError
        The file is not such a file, or was written for another kind or version.
    """
    name = os.fspath(filename)
    try:
        with numpy.load(name, allow_pickle=False) as npz:
            arrays = {key: npz[key] for key in npz.files}
        index = json.loads(str(arrays.pop("index")[()]))
    except FileNotFoundError:
        raise
    except (ValueError, OSError, KeyError, AttributeError, TypeError, zipfile.BadZipFile) as e:
        raise ValueError(f"{owner}: {name} is not a replay-buffer file that can be read "
                         f"without pickle ({type(e).__name__}: {e})") from None
    if not isinstance(index, dict) or index.get("format") != FORMAT:
        raise ValueError(f"{owner}: {name} is not a kusari replay-buffer file")
    if index.get("version") != VERSION or index.get("kind") != kind:
        raise ValueError(f"{owner}: {name} holds a {index.get('kind')!r} buffer of format version "
                         f"{index.get('version')!r}; expected {kind!r} version {VERSION}")
    return index, arrays
