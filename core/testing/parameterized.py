"""Chainer-style class parameterization: ``@parameterize(*product({...}))``."""
import functools
import itertools
import sys

import numpy


def product(parameter):
    """Cartesian product of a dict of lists (-> list of dicts) or of a list of lists of dicts."""
    if isinstance(parameter, dict):
        keys = sorted(parameter)
        return [dict(zip(keys, values)) for values in itertools.product(*(parameter[k] for k in keys))]
    result = []
    for dicts in itertools.product(*parameter):
        merged = {}
        for d in dicts:
            merged.update(d)
        result.append(merged)
    return result


def _short(value) -> str:
    if isinstance(value, type):
        return value.__name__
    if isinstance(value, numpy.dtype):
        return value.name
    text = str(value)
    return "".join(c if c.isalnum() else "_" for c in text)[:30]


def parameterize(*params):
    """Class decorator: one generated test class per parameter dict, set as class attributes.

    The generated classes are added to the defining module; the original class is not collected.
    """
    def wrap(cls):
        module = sys.modules[cls.__module__]
        for i, p in enumerate(params):
            name = f"{cls.__name__}_param_{i}_" + "_".join(f"{k}_{_short(v)}" for k, v in sorted(p.items()))
            attrs = dict(p)
            attrs["__test__"] = True
            attrs["__module__"] = cls.__module__
            setattr(module, name, type(name, (cls,), attrs))
        cls.__test__ = False
        return cls
    return wrap


def fix_random(seed: int = 0):
    """Decorator seeding NumPy's global RNG before each call of the test method."""
    def decorator(f):
        @functools.wraps(f)
        def wrapped(*args, **kwargs):
            numpy.random.seed(seed)
            return f(*args, **kwargs)
        return wrapped
    return decorator
