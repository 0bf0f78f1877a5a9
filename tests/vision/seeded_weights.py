"""Seeded weights for the ChainerCV model fixtures: the same arrays on NumPy 1.23.5 (the writer, in the peer's
environment) and NumPy 2 (the tests), from a key, a shape and a seed.

Full-size pretrained weights are not committed: a fixture stores a model's key and shape list, and both sides
fill the model with these arrays. Each array draws from ``RandomState(seed + crc32(key))`` (legacy NumPy
streams, stable across versions) and is scaled so that activations stay of order one through deep networks.
"""
import zlib

import numpy as np

SCALE = 0.1  # spread of the 1-D arrays around their centre


def seeded_array(key: str, shape: tuple, seed: int) -> np.ndarray:
    """The float32 array for ``key`` (a ``save_npz`` key such as ``'conv1/W'``) of ``shape``.

    - ``.../W`` and other arrays of 2 or more dimensions: normal, std ``1 / sqrt(fan_in)`` with
      ``fan_in = prod(shape[1:])``;
    - ``gamma`` and ``avg_var``: ``1 + SCALE * |normal|`` (positive, near 1);
    - other 1-D or 0-D arrays (biases, ``beta``, ``avg_mean``): ``SCALE * normal``.
    """
    rng = np.random.RandomState((seed + zlib.crc32(key.encode())) % 2**32)
    noise = rng.standard_normal(shape)
    name = key.rsplit("/", 1)[-1]
    if len(shape) >= 2:
        values = noise / np.sqrt(np.prod(shape[1:]))
    elif name in ("gamma", "avg_var"):
        values = 1 + SCALE * np.abs(noise)
    else:
        values = SCALE * noise
    return np.asarray(values, dtype=np.float32)


def seeded_arrays(shapes: dict, seed: int) -> dict:
    """``{key: seeded_array(key, shape, seed)}`` for every ``{key: shape}``."""
    return {key: seeded_array(key, tuple(shape), seed) for key, shape in shapes.items()}


def seeded_normal(seed: int, shape: tuple, scale: float = 1.0) -> np.ndarray:
    """A float32 array of normal draws from ``RandomState(seed)`` times ``scale``: a fixture input that both
    sides regenerate instead of storing it."""
    return np.asarray(np.random.RandomState(seed).standard_normal(shape) * scale, dtype=np.float32)


def seeded_uniform(seed: int, shape: tuple, low: float, high: float) -> np.ndarray:
    """A float32 array of uniform draws in [low, high) from ``RandomState(seed)`` (e.g. an image)."""
    return np.asarray(np.random.RandomState(seed).uniform(low, high, shape), dtype=np.float32)


def seeded_image_batch(seed: int, size: int = 64) -> np.ndarray:
    """A float32 ``(2, 3, size, size)`` batch, centred as ChainerCV's classifiers take it (minus 120): uniform
    noise in [0, 255) from ``RandomState(seed)``, and a horizontal ramp with a bright square."""
    noise = np.random.RandomState(seed).uniform(0, 255, (3, size, size))
    ramp = np.broadcast_to(np.linspace(0, 255, size), (3, size, size)).copy()
    ramp[:, size // 3:size * 2 // 3, size * 3 // 8:size * 5 // 8] = 250
    return np.asarray(np.stack((noise, ramp)) - 120, dtype=np.float32)
