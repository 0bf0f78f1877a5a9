"""What the ChainerCV fixture writers share (run inside the ChainerCV 0.13.1 environment): deterministic npz
files, the versions record, and seeded model weights."""
import io
import json
import platform
import warnings
import zipfile

import numpy as np

# NumPy 1.23.5 warns on numpy.int / ragged arrays inside Chainer and ChainerCV
warnings.filterwarnings("ignore", category=DeprecationWarning)
warnings.filterwarnings("ignore", category=np.VisibleDeprecationWarning)

import chainer  # noqa: E402
import chainercv  # noqa: E402
import seeded_weights  # noqa: E402  (tests/vision/seeded_weights.py, on PYTHONPATH)

FIXED_TIME = (1980, 1, 1, 0, 0, 0)


def versions() -> dict:
    """The versions of everything that computed a fixture."""
    import cv2
    import PIL
    return {"python": platform.python_version(), "numpy": np.__version__, "chainer": chainer.__version__,
            "chainercv": chainercv.__version__, "opencv": cv2.__version__, "pillow": PIL.__version__}


def save_npz(path, entries: dict) -> None:
    """``entries`` as an npz with fixed zip timestamps and no pickle (a re-run writes identical bytes),
    plus a ``versions`` JSON entry. Keys may contain '/'."""
    entries = dict(entries, versions=np.array(json.dumps(versions(), sort_keys=True)))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for key, value in entries.items():
            buffer = io.BytesIO()
            np.lib.format.write_array(buffer, np.asanyarray(value), allow_pickle=False)
            info = zipfile.ZipInfo(key + ".npy", date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, buffer.getvalue())


def fill_seeded(link: chainer.Link, seed: int) -> dict:
    """Set every parameter and persistent array of ``link`` (initialized: run a forward first for lazy
    ones) to ``seeded_weights.seeded_array(key, shape, seed)``, ``key`` as ``save_npz`` names it.

    Returns
    -------
    dict
        ``{key: shape}`` of what was filled, to be stored in the fixture.
    """
    buffer = io.BytesIO()
    chainer.serializers.save_npz(buffer, link)
    with np.load(io.BytesIO(buffer.getvalue())) as saved:
        shapes = {key: saved[key].shape for key in saved.files if saved[key].dtype.kind == "f"}
    arrays = seeded_weights.seeded_arrays(shapes, seed)
    out = io.BytesIO()
    np.savez(out, **arrays)
    chainer.serializers.load_npz(io.BytesIO(out.getvalue()), link, strict=False)
    return shapes
