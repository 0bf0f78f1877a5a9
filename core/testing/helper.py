"""Test helpers: skip on missing requirements, assert a warning, patch an object while spying on it."""
import contextlib
import importlib.metadata
import pkgutil
import unittest
import unittest.mock
import warnings


def _satisfied(requirement: str) -> bool:
    from packaging.requirements import Requirement
    req = Requirement(requirement)
    try:
        version = importlib.metadata.version(req.name)
    except importlib.metadata.PackageNotFoundError:
        return False
    return req.specifier.contains(version, prereleases=True)


def with_requires(*requirements: str):
    """Decorator: skip the test unless every requirement (``'scipy>=1.0'``) is installed."""
    return unittest.skipIf(not all(_satisfied(r) for r in requirements),
                           f"requires: {','.join(requirements)}")


def without_requires(*requirements: str):
    """Decorator: skip the test when all the requirements are installed."""
    return unittest.skipIf(all(_satisfied(r) for r in requirements),
                           f"requires the absence of: {','.join(requirements)}")


@contextlib.contextmanager
def assert_warns(expected):
    """Context manager: fail unless a warning of category ``expected`` is issued inside."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not any(isinstance(w.message, expected) for w in caught):
        raise AssertionError(f"{getattr(expected, '__name__', expected)} not triggered")


def patch(target: str, *args, **kwargs):
    """``unittest.mock.patch`` of the object named ``target`` that still calls it (``wraps`` defaults to it)."""
    if "wraps" not in kwargs:
        kwargs["wraps"] = pkgutil.resolve_name(target)
    return unittest.mock.patch(target, *args, **kwargs)
