"""``@unary_math_function_unittest(F.sin)``: forward, backward and double backward tests of a unary op.

The decorated ``unittest.TestCase`` gets ``test_forward_cpu``, ``test_backward_cpu``,
``test_double_backward_cpu`` (and ``*_gpu`` variants marked ``gpu``), parameterized over
shape (3, 2) and () and dtype float16/32/64; ``test_label`` too when ``kusari.functions`` has the
op's class under the capitalized name.
"""
import unittest

import numpy


def _default_data(shape, dtype):
    """Input, output gradient and second-order gradient drawn from U(-1, 1)."""
    return tuple(numpy.random.uniform(-1, 1, shape).astype(dtype, copy=False) for _ in range(3))


def _tolerances(dtype):
    if numpy.dtype(dtype) == numpy.float16:
        eps = float(numpy.finfo(numpy.float16).eps)
        return ({"atol": eps, "rtol": eps},
                {"eps": 2 ** -4, "atol": 2 ** -4, "rtol": 2 ** -4, "dtype": numpy.float64})
    return {"atol": 1e-4, "rtol": 1e-4}, {"dtype": numpy.float64, "atol": 1e-4, "rtol": 1e-4}


def unary_math_function_unittest(func, func_expected=None, label_expected=None, make_data=None,
                                 is_linear=None, forward_options=None, backward_options=None,
                                 double_backward_options=None):
    """Class decorator testing ``func`` against ``func_expected`` (default: NumPy's function of that name).

    ``make_data(shape, dtype) -> (x, gy, ggx)`` customizes the data; the ``*_options`` dicts update the
    tolerances of ``assert_allclose``, ``check_backward`` and ``check_double_backward``.
    ``is_linear`` is accepted for compatibility and unused (double backward of a linear op is tested as is).
    """
    from kusari import backend, functions, gradient_check
    from kusari.testing import attr
    from kusari.testing.array import assert_allclose
    from kusari.testing.parameterized import parameterize, product
    from kusari.variable import Variable

    name = func.__name__
    if func_expected is None:
        func_expected = getattr(numpy, name, None)
        if func_expected is None:
            raise ValueError(f"unary_math_function_unittest: NumPy has no function {name!r}; pass func_expected")
    func_class = getattr(functions, name.capitalize(), None)
    if label_expected is None:
        label_expected = name
    elif func_class is None:
        raise ValueError(f"unary_math_function_unittest: label_expected given but kusari.functions has no "
                         f"class {name.capitalize()!r}")
    make = make_data or _default_data

    def setUp(self):
        self.x, self.gy, self.ggx = make(self.shape, self.dtype)
        self.forward_options, backward = _tolerances(self.dtype)
        self.backward_options = dict(backward)
        self.double_backward_options = dict(backward)
        self.forward_options.update(forward_options or {})
        self.backward_options.update(backward_options or {})
        self.double_backward_options.update(double_backward_options or {})

    def check_forward(self, x_data):
        y = func(Variable(x_data))
        self.assertEqual(y.array.dtype, x_data.dtype)
        expected = func_expected(backend.to_cpu(x_data), dtype=x_data.dtype)
        assert_allclose(expected, y.array, **self.forward_options)

    def check_backward(self, x_data, gy):
        gradient_check.check_backward(func, x_data, gy, **self.backward_options)

    def check_double_backward(self, x_data, gy, ggx):
        gradient_check.check_double_backward(func, x_data, gy, ggx, **self.double_backward_options)

    def decorate(klass):
        if not issubclass(klass, unittest.TestCase):
            raise TypeError(f"unary_math_function_unittest: {klass.__name__} must be a unittest.TestCase")
        def test_forward_cpu(self):
            self.check_forward(self.x)

        def test_forward_gpu(self):
            self.check_forward(backend.to_gpu(self.x))

        def test_backward_cpu(self):
            self.check_backward(self.x, self.gy)

        def test_backward_gpu(self):
            self.check_backward(backend.to_gpu(self.x), backend.to_gpu(self.gy))

        def test_double_backward_cpu(self):
            self.check_double_backward(self.x, self.gy, self.ggx)

        def test_double_backward_gpu(self):
            self.check_double_backward(*(backend.to_gpu(a) for a in (self.x, self.gy, self.ggx)))

        def test_label(self):
            self.assertEqual(func_class().label, label_expected)

        members = [setUp, check_forward, check_backward, check_double_backward, test_forward_cpu,
                   attr.gpu(test_forward_gpu), test_backward_cpu, attr.gpu(test_backward_gpu),
                   test_double_backward_cpu, attr.gpu(test_double_backward_gpu)]
        if func_class is not None:
            members.append(test_label)
        for member in members:
            setattr(klass, member.__name__, member)
        return parameterize(*product({"shape": [(3, 2), ()],
                                      "dtype": [numpy.float16, numpy.float32, numpy.float64]}))(klass)
    return decorate
