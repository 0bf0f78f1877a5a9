"""Helpers of the oneDNN tests: run a computation with oneDNN and with NumPy, compare, count kernel calls."""
import types

import numpy
import pytest

import kusari


def run_both(compute):
    """``compute()`` with ``use_onednn`` 'always' and 'never': the oneDNN and the NumPy results."""
    with kusari.using_config("use_onednn", "always"):
        fast = compute()
    with kusari.using_config("use_onednn", "never"):
        reference = compute()
    return fast, reference


def assert_close(fast, reference, rtol=1e-4, atol=1e-5):
    """Each pair of arrays or Variables (None must pair with None) agrees within float32 tolerance,
    ``atol`` scaled by the reference's largest magnitude (at least 1)."""
    assert len(fast) == len(reference)
    for i, (a, b) in enumerate(zip(fast, reference)):
        if a is None or b is None:
            assert a is None and b is None, f"entry {i}: only one side has a value"
            continue
        a, b = getattr(a, "array", a), getattr(b, "array", b)
        assert a.dtype == b.dtype == numpy.float32, f"entry {i}: dtypes {a.dtype}, {b.dtype}"
        scale = max(float(numpy.abs(b).max(initial=0.0)), 1.0)
        numpy.testing.assert_allclose(a, b, rtol=rtol, atol=atol * scale, err_msg=f"entry {i}")


@pytest.fixture
def compare():
    """``compare.run_both(compute)`` and ``compare.assert_close(fast, reference)``."""
    return types.SimpleNamespace(run_both=run_both, assert_close=assert_close)


@pytest.fixture
def count_calls(monkeypatch):
    """``count_calls(module, name)`` wraps a kernel; the list it returns grows each time the kernel computes."""
    def install(module, name):
        original = getattr(module, name)
        calls = []

        def counted(*args, **kwargs):
            result = original(*args, **kwargs)
            if result is not None:
                calls.append(name)
            return result
        monkeypatch.setattr(module, name, counted)
        return calls
    return install
