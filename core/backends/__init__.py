"""Chainer's ``chainer.backends``: ``cuda`` (CuPy helpers) and ``intel64`` (iDeep, absent: a CPU stand-in)."""
from kusari.backends import cuda, intel64  # NOQA
