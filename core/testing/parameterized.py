"""Chainer-style class parameterization: ``@parameterize(*product({...}))``, and seeded test randomness."""
import functools
import itertools
import random
import types

import numpy

from kusari.testing._bundle import generate_variants


def _dicts(names: str, values) -> list:
    """``'a,b', [(1, 2), (3, 4)]`` -> ``[{'a': 1, 'b': 2}, {'a': 3, 'b': 4}]``; one name takes values as they are."""
    keys = names.split(",")
    if len(keys) == 1:
        return [{keys[0]: v} for v in values]
    out = []
    for v in values:
        if not isinstance(v, (tuple, list)) or len(v) != len(keys):
            raise ValueError(f"product: the key {names!r} needs {len(keys)} values per entry, got {v!r}")
        out.append(dict(zip(keys, v)))
    return out


def product_dict(*parameters) -> list:
    """Cartesian product of lists of dicts, each combination merged into one dict."""
    return [{k: v for d in dicts for k, v in d.items()} for dicts in itertools.product(*parameters)]


def product(parameter) -> list:
    """Cartesian product of a dict of lists (-> list of dicts) or of a list of lists of dicts.

    A key ``'a,b'`` takes tuples of values for ``a`` and ``b`` together (Chainer's comma keys).
    """
    if isinstance(parameter, dict):
        return product_dict(*[_dicts(k, v) for k, v in sorted(parameter.items())])
    if isinstance(parameter, list) and all(isinstance(p, list) and all(isinstance(d, dict) for d in p)
                                           for p in parameter):
        return product_dict(*parameter)
    raise TypeError(f"product: parameter must be a dict of lists or a list of lists of dicts, "
                    f"got {type(parameter).__name__}")


def from_pytest_parameterize(names: str, values) -> list:
    """pytest's ``('a,b', [(1, 2), ...])`` spelled as a list of dicts."""
    return _dicts(names, values)


def _value_name(value) -> str:
    name = getattr(value, "__name__", None)
    text = name if isinstance(name, str) else repr(value)
    return text if len(text) <= 100 else text[:48] + "..." + text[-49:]


def _class_name(base: str, i: int, param: dict) -> str:
    # Chainer's naming, so that the same test has the same id on Chainer and on kusari
    text = ", ".join(f"{k}={_value_name(v)}" for k, v in sorted(param.items()))
    if len(text) > 5000:
        text = text[:2498] + "..." + text[-2499:]
    return f"{base}_param_{i}_{{{text}}}"


def parameterize(*params):
    """Class decorator: one generated test class per parameter dict, set as class attributes.

    The generated classes are added to the defining module; the original class is not collected.
    Stacks with ``inject_backend_tests`` and itself.
    """
    def make(cls):
        for i, p in enumerate(params):
            # a plain function given as a value stays a function (not a method of the test)
            attrs = {k: staticmethod(v) if isinstance(v, types.FunctionType) else v for k, v in p.items()}
            yield _class_name(cls.__name__, i, p), attrs, lambda method: method
    return lambda cls: generate_variants(cls, make)


def parameterize_pytest(names: str, values):
    """``parameterize`` with pytest's ``('a,b', [(1, 2), ...])`` arguments."""
    return parameterize(*from_pytest_parameterize(names, values))


_saved_states = []


def _seed():
    _saved_states.append((random.getstate(), numpy.random.get_state()))
    numpy.random.seed(100)


def _restore():
    python_state, numpy_state = _saved_states.pop()
    random.setstate(python_state)
    numpy.random.set_state(numpy_state)


def generate_seed() -> int:
    """A seed drawn from NumPy's (fixed) global RNG, inside a ``fix_random`` test."""
    if not _saved_states:
        raise RuntimeError("generate_seed: call it inside a test decorated with fix_random")
    return int(numpy.random.randint(0xffffffff))


def fix_random(seed=None, *, setup_method="setUp", teardown_method="tearDown"):
    """Seed Python's and NumPy's global RNGs for each test, and restore them afterwards.

    On a test method: it runs seeded (with ``seed``, default 100). On a class (Chainer's use,
    ``@fix_random()``): the class's ``setUp``/``tearDown`` (or ``setup_method``/``teardown_method``
    of plain pytest classes) are wrapped, so ``setUp`` already draws from the seeded RNG.
    """
    def seed_now():
        _seed()
        if seed is not None:
            numpy.random.seed(seed)

    def decorator(target):
        if isinstance(target, types.FunctionType):
            @functools.wraps(target)
            def wrapped(*args, **kwargs):
                seed_now()
                try:
                    return target(*args, **kwargs)
                finally:
                    _restore()
            return wrapped
        for cls in target.__dict__.get("_kusari_variants") or [target]:
            setup_name, teardown_name = setup_method, teardown_method
            if not hasattr(cls, setup_name):
                setup_name, teardown_name = "setup_method", "teardown_method"
            previous_setup = getattr(cls, setup_name, None)
            previous_teardown = getattr(cls, teardown_name, None)

            def new_setup(self, *args, _previous=previous_setup):
                seed_now()
                if _previous is not None:
                    _previous(self, *args)

            def new_teardown(self, *args, _previous=previous_teardown):
                try:
                    if _previous is not None:
                        _previous(self, *args)
                finally:
                    if _saved_states:
                        _restore()

            setattr(cls, setup_name, new_setup)
            setattr(cls, teardown_name, new_teardown)
        return target
    # Chainer writes @fix_random() and also @fix_random on a method
    if callable(seed) and not isinstance(seed, int):
        target, seed = seed, None
        return decorator(target)
    return decorator
