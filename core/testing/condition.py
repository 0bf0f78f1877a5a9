"""Repeat a flaky (random-input) test: ``retry(n)``, ``repeat(n)``, ``repeat_with_success_at_least(n, k)``."""
import functools
import unittest


def _fresh(test):
    """Run the test class's tear-down and set-up again, so the next trial starts from new data."""
    if isinstance(test, unittest.TestCase):
        test.tearDown()
        test.setUp()
    else:
        for name in ("teardown_method", "setup_method"):
            method = getattr(test, name, None)
            if method is not None:
                method(None)


def repeat_with_success_at_least(times: int, min_success: int):
    """Decorator: run the test up to ``times`` times; it passes once ``min_success`` trials have passed.

    A skip in any trial skips the test; when too many trials fail, the first failure is re-raised
    with the count.
    """
    if not 0 <= min_success <= times:
        raise ValueError(f"repeat_with_success_at_least: need 0 <= min_success <= times, "
                         f"got times={times}, min_success={min_success}")

    def decorator(f):
        @functools.wraps(f)
        def wrapper(self, *args, **kwargs):
            successes = failures = 0
            first = None
            for trial in range(times):
                if trial:
                    _fresh(self)
                try:
                    f(self, *args, **kwargs)
                except unittest.SkipTest:
                    raise
                except Exception as e:
                    failures += 1
                    first = first or e
                else:
                    successes += 1
                if successes >= min_success:
                    return
                if failures > times - min_success:
                    break
            raise AssertionError(f"{f.__name__}: {successes} of {successes + failures} trials passed, "
                                 f"{min_success} of {times} needed; first failure: {first!r}") from first
        return wrapper
    return decorator


def repeat(times: int):
    """Decorator: the test must pass ``times`` times in a row."""
    return repeat_with_success_at_least(times, times)


def retry(times: int):
    """Decorator: the test must pass at least once in ``times`` trials."""
    return repeat_with_success_at_least(times, 1)
