"""Test helpers: parameterized test classes, dtype-aware tolerances, and the op test harness."""
from kusari.testing.array import assert_allclose, tolerance  # NOQA
from kusari.testing.parameterized import fix_random, parameterize, product  # NOQA
from kusari.testing.backward_arrays import check_backward_arrays  # NOQA
from kusari.testing.function_test import FunctionTestCase  # NOQA
