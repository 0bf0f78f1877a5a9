"""Seeding every random number generator that kusari.rl draws from."""
import random

import numpy


def set_random_seed(seed: int) -> None:
    """Seed Python's ``random`` and NumPy's global RandomState with ``seed``.

    kusari's initializers and every part of kusari.rl draw from these two, so a run started after
    ``set_random_seed(s)`` repeats exactly. Environments are seeded apart, through gymnasium's
    ``env.reset(seed=...)``.

    Parameters
    ----------
    seed : int
        In ``[0, 2**32)``.
    """
    if isinstance(seed, bool) or not isinstance(seed, (int, numpy.integer)) or not 0 <= seed < 2 ** 32:
        raise ValueError(f"set_random_seed: seed must be an int in [0, 2**32), got {seed!r}")
    random.seed(int(seed))
    numpy.random.seed(int(seed))
