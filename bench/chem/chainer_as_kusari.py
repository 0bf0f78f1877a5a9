"""Runs code written against kusari's names on Chainer 7.8.1 and Chainer Chemistry 0.7.1 (the peer's side of bench.chem).

kusari keeps Chainer's and Chainer Chemistry's module paths and names (``import kusari.chem as chainer_chemistry``
ports a program), so the reverse holds too: after :func:`install`, ``import kusari.chem.X`` gives
``chainer_chemistry.X`` and ``import kusari.X`` gives ``chainer.X``, and the very code that trains kusari's GGNN
(bench.chem's and the reproductions' loop) trains Chainer Chemistry's. Three shims make up for what differs:

- ``collections.Iterable``, which Python 3.10 removed and ``chainer_chemistry.utils.extend`` still imports;
- ``numpy.asscalar``, which NumPy 1.23 removed and Chainer Chemistry's ``Regressor`` calls to report its loss;
- ``kusari.backend.to_cpu``, which Chainer 7 spells ``chainer.backends.cuda.to_cpu``.

Install it only in a process that runs the peer: it changes how ``kusari`` imports for the rest of the process.
"""
from __future__ import annotations

import collections
import collections.abc
import importlib
import importlib.abc
import importlib.util
import sys


def peer_name(name: str) -> str:
    """The Chainer or Chainer Chemistry module that the kusari module ``name`` stands for."""
    if name == "kusari.chem" or name.startswith("kusari.chem."):
        return "chainer_chemistry" + name[len("kusari.chem"):]
    if name == "kusari" or name.startswith("kusari."):
        return "chainer" + name[len("kusari"):]
    raise ValueError(f"peer_name: {name!r} is not a kusari module")


class _PeerFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Answers ``import kusari...`` with the already imported peer module."""

    def find_spec(self, name, path=None, target=None):
        if name == "kusari" or name.startswith("kusari."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module(peer_name(spec.name))

    def exec_module(self, module):
        pass   # the peer module ran when it was imported under its own name


def install() -> None:
    """Make ``kusari`` and ``kusari.chem`` import as Chainer and Chainer Chemistry in this process."""
    if any(isinstance(finder, _PeerFinder) for finder in sys.meta_path):
        return
    collections.Iterable = collections.abc.Iterable
    import numpy
    if not hasattr(numpy, "asscalar"):
        numpy.asscalar = lambda array: array.item()
    import chainer.backend
    import chainer.backends.cuda
    chainer.backend.to_cpu = chainer.backends.cuda.to_cpu
    sys.meta_path.insert(0, _PeerFinder())
