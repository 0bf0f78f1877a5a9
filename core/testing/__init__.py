"""Test helpers: parameterized test classes, dtype-aware tolerances, the op test harness, and Chainer's helpers.

pytest is imported only by what needs it (``FunctionTestCase``, the markers in ``attr``), on first use,
so ``import kusari.testing`` works without pytest.
"""
from kusari.testing.array import assert_allclose, tolerance  # NOQA
from kusari.testing.parameterized import (fix_random, from_pytest_parameterize, generate_seed,  # NOQA
                                          parameterize, parameterize_pytest, product, product_dict)
from kusari.testing.backward_arrays import check_backward_arrays  # NOQA
from kusari.testing import attr, condition  # NOQA
from kusari.testing.backend import BackendConfig, inject_backend_tests  # NOQA
from kusari.testing.helper import assert_warns, patch, with_requires, without_requires  # NOQA
from kusari.testing.serializer import save_and_load, save_and_load_hdf5, save_and_load_npz  # NOQA
from kusari.testing.unary_math_function_test import unary_math_function_unittest  # NOQA
from kusari.testing.link_test import InitializerArgument, LinkInitializersTestCase, LinkTestCase  # NOQA


def __getattr__(name):
    if name == "FunctionTestCase":     # imports pytest
        from kusari.testing.function_test import FunctionTestCase
        return FunctionTestCase
    raise AttributeError(f"module 'kusari.testing' has no attribute {name!r}")


def run_module(name: str, file: str):
    """Run the tests of ``file`` with pytest when it is executed as a script (``name == '__main__'``)."""
    if name == "__main__":
        import pytest
        pytest.main([file, "-q"])
