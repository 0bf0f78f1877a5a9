"""Atomic writes of the files extensions produce (logs, plots, graphs) into the trainer's ``out``."""
import json
import os

from kusari.utils.atomic_write import open_for_write


def write_bytes(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data`` atomically (a reader sees the old or the new file, never a part)."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    with open_for_write(path) as f:
        f.write(data)


def write_json(path: str, obj) -> None:
    """Write ``obj`` as indented JSON to ``path`` atomically."""
    write_bytes(path, json.dumps(obj, indent=4).encode("utf-8"))
