"""pytest markers for tests: ``gpu``, ``cudnn``, ``slow``, ``ideep``, ``chainerx``, ``multi_gpu(n)``.

pytest is imported on first use; without pytest each marker is a decorator that leaves the test as is.
"""
_NAMES = ("gpu", "cudnn", "slow", "ideep", "chainerx")


def _mark(name):
    try:
        import pytest
    except ImportError:
        return lambda f: f
    return getattr(pytest.mark, name)


def multi_gpu(gpu_num: int):
    """Marks a test that needs ``gpu_num`` GPUs (it is also a ``gpu`` test)."""
    try:
        import pytest
    except ImportError:
        return lambda f: f
    return lambda f: pytest.mark.gpu(pytest.mark.multi_gpu(gpu_num)(f))


def __getattr__(name):
    if name in _NAMES:
        return _mark(name)
    raise AttributeError(f"kusari.testing.attr has no marker {name!r} (markers: {', '.join(_NAMES)}, multi_gpu)")
