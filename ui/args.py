"""save_args: write a run's arguments into its result folder, where the dashboard shows them as columns."""
import argparse
import json
import os

from kusari.utils.atomic_write import open_for_write

ARGS_FILE = "args"


def save_args(args, out: str) -> str:
    """Write ``args`` (an ``argparse.Namespace`` or a dict of JSON-able values) to ``out/args`` as JSON.

    Values JSON cannot hold are written as their ``str``. Returns the path written.
    """
    if isinstance(args, argparse.Namespace):
        args = vars(args)
    if not isinstance(args, dict):
        raise TypeError(f"save_args: args must be an argparse.Namespace or a dict, got {type(args).__name__}")
    os.makedirs(out, exist_ok=True)
    path = os.path.join(out, ARGS_FILE)
    with open_for_write(path) as f:
        f.write(json.dumps(args, indent=4, default=str).encode("utf-8"))
    return path
