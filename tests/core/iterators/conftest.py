"""Iterator test helpers: a save/load round trip through an .npz file (the kusari.serializer
protocol), and polling for a condition."""
import time

import numpy
import pytest

from kusari.serializer import Deserializer, Serializer


class _Writer(Serializer):
    def __init__(self, target, prefix=""):
        self.target, self.prefix = target, prefix

    def __getitem__(self, key):
        return _Writer(self.target, self.prefix + key + "/")

    def __call__(self, key, value):
        self.target[self.prefix + key] = numpy.asarray(value).copy()
        return value


class _Reader(Deserializer):
    def __init__(self, npz, prefix=""):
        self.npz, self.prefix = npz, prefix

    def __getitem__(self, key):
        return _Reader(self.npz, self.prefix + key + "/")

    def __call__(self, key, value):
        stored = self.npz[self.prefix + key]
        if value is None:
            return stored
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return type(value)(stored.item())


@pytest.fixture
def snapshot(tmp_path):
    """``save(obj) -> path`` and ``load(obj, path)`` through an .npz file (no pickles)."""
    counter = iter(range(1000))

    def save(obj):
        target = {}
        obj.serialize(_Writer(target))
        path = tmp_path / f"snapshot{next(counter)}.npz"
        numpy.savez(path, **target)
        return path

    def load(obj, path):
        with numpy.load(path, allow_pickle=False) as npz:
            obj.serialize(_Reader(npz))

    return save, load


@pytest.fixture
def wait_until():
    """``wait_until(condition, timeout=15)``: poll until ``condition()`` holds; False on timeout."""
    def poll(condition, timeout=15.0):
        deadline = time.monotonic() + timeout
        while not condition():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True
    return poll
