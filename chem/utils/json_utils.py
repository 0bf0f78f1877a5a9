"""save_json / load_json: JSON files that may hold NumPy (and CuPy) numbers and arrays, and paths."""
import json
from logging import getLogger
from pathlib import PurePath

import numpy
from kusari import backend
from kusari.utils.atomic_write import atomic_path


class JSONEncoderEX(json.JSONEncoder):
    """A JSON encoder that writes NumPy/CuPy numbers and arrays as numbers and lists, paths as '/' strings."""

    def default(self, obj):
        if isinstance(obj, numpy.integer):
            return int(obj)
        if isinstance(obj, numpy.floating):
            return float(obj)
        if isinstance(obj, numpy.ndarray):
            return obj.tolist()
        if backend.is_gpu_array(obj):
            return backend.to_cpu(obj).tolist()
        if isinstance(obj, PurePath):
            # the same file whichever OS wrote it
            return str(obj).replace("\\", "/")
        return super().default(obj)


def save_json(filepath, params, ignore_error: bool = False, indent: int = 4, logger=None) -> None:
    """Write ``params`` to ``filepath`` as JSON, atomically (the old file or the new one, never a part).

    Parameters
    ----------
    filepath : str or os.PathLike
    params : dict or list
        JSON values, NumPy/CuPy numbers and arrays, and paths.
    ignore_error : bool
        Log a failure instead of raising it.
    indent : int
    logger : logging.Logger or None
    """
    try:
        with atomic_path(filepath) as tmp, open(tmp, "w") as f:
            json.dump(params, f, indent=indent, cls=JSONEncoderEX)
    except Exception as e:
        if not ignore_error:
            raise
        logger = logger or getLogger(__name__)
        logger.warning("save_json: could not write %s (left as it was): %s", filepath, e)


def load_json(filepath):
    """The JSON value stored in ``filepath`` (arrays come back as lists).

    Parameters
    ----------
    filepath : str or os.PathLike

    Returns
    -------
    dict or list
    """
    with open(filepath) as f:
        return json.load(f)
