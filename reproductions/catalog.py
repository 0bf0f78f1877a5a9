"""The list of reproductions, found by importing the modules named here."""
import importlib

from reproductions.spec import Reproduction

MODULES = (
    "reproductions.vision.mnist_mlp",
    "reproductions.vision.mnist_lenet5",
)


def all_reproductions() -> dict[str, Reproduction]:
    """name -> Reproduction for every module in :data:`MODULES`."""
    found = {}
    for module in MODULES:
        repro = importlib.import_module(module).REPRODUCTION
        found[repro.name] = repro
    return found


def get(name: str) -> Reproduction:
    """The reproduction called ``name``; ValueError listing the known ones otherwise."""
    known = all_reproductions()
    if name not in known:
        raise ValueError(f"reproductions: unknown reproduction {name!r}; known: {', '.join(sorted(known))}")
    return known[name]
