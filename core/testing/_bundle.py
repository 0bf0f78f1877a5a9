"""Class decorators that compose: each turns a test class (or the variants an earlier one made) into variants.

``@parameterize`` and ``@inject_backend_tests`` stack in any order. A decorator that generates
variants of a class registers them in the class's module, takes earlier variants out of the module,
and returns the original class with ``__test__ = False`` and the current variants in
``_kusari_variants`` (so the next decorator maps over those).
"""
import sys


def _test_methods(cls):
    return [name for name in dir(cls) if name.startswith("test_") and callable(getattr(cls, name))]


def generate_variants(base, make):
    """Apply a variant maker to ``base`` or to each of its current variants; returns ``base``.

    ``make(cls)`` yields ``(name, attributes, wrap)``: one variant named ``name``, a subclass of ``cls``
    with ``attributes``, whose test methods are ``wrap(method)`` (a ``wrap`` returning None drops the method).
    """
    module = sys.modules[base.__module__]
    sources = base.__dict__.get("_kusari_variants") or [base]
    variants = []
    for cls in sources:
        if cls is not base:
            cls.__test__ = False
            if getattr(module, cls.__name__, None) is cls:
                delattr(module, cls.__name__)
        for name, attributes, wrap in make(cls):
            members = dict(attributes)
            for method_name in _test_methods(cls):
                members[method_name] = wrap(getattr(cls, method_name))
            members["__test__"] = True
            members["__module__"] = base.__module__
            members["_kusari_variants"] = None
            variant = type(name, (cls,), members)
            setattr(module, name, variant)
            variants.append(variant)
    base._kusari_variants = variants
    base.__test__ = False
    return base


def wrap_method(method, call, marks=()):
    """A new function named as ``method`` that runs ``call(self, *args, **kwargs)``, with pytest ``marks``.

    The marks already on ``method`` stay (a second ``inject_backend_tests`` keeps the first one's
    ``gpu``), except ``parametrize``: the wrapper supplies that argument itself.
    """
    def wrapped(self, *args, **kwargs):
        return call(self, *args, **kwargs)
    wrapped.__name__ = method.__name__
    wrapped.__qualname__ = getattr(method, "__qualname__", method.__name__)
    wrapped.__doc__ = method.__doc__
    kept = [m for m in getattr(method, "pytestmark", ()) if m.name != "parametrize"]
    if kept:
        wrapped.pytestmark = kept
    for mark in marks:
        wrapped = mark(wrapped)
    return wrapped
