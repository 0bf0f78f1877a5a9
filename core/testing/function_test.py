"""FunctionTestCase: the harness every op test uses (forward vs reference, dtype kept, backward, double backward).

A subclass sets ``dtype`` (usually through ``@parameterize``) and implements
``generate_inputs() -> tuple of arrays``, ``forward(inputs, device) -> tuple of Variables`` and
``forward_expected(inputs) -> tuple of arrays`` (an independent NumPy reference).
Set ``skip_double_backward_test = True`` only where the math is not twice differentiable.
Every op of the forward that defines ``backward_arrays`` is proven to give ``backward``'s
gradients bit for bit (``test_backward_arrays``, see ``kusari.testing.check_backward_arrays``).

Each check runs on NumPy and, under the ``gpu`` marker, on CuPy's first GPU: inputs are generated
on the host and sent to the device, references stay NumPy. Without CuPy or a GPU, the GPU
variants skip (see ``tests/conftest.py``).

Chainer's contract works too, so a Chainer test suite ports by renaming the import: under
``@inject_backend_tests`` each check gets a ``BackendConfig`` (run inside it, with Chainer's default
tolerances and ``numerical_grad_dtype``), ``setUp``/``tearDown`` and ``before_test(test_name)`` are
called, ``dodge_nondifferentiable`` redraws inputs at a kink, ``contiguous = None`` makes the arrays
non-contiguous, and ``self.assertEqual`` etc. are unittest's.
"""
import contextlib
import unittest

import numpy
import pytest

from kusari import backend, gradient_check
from kusari.testing.array import assert_allclose, tolerance
from kusari.testing.array import as_noncontiguous_array
from kusari.testing.backward_arrays import check_backward_arrays
from kusari.variable import Variable

_ASSERTIONS = unittest.TestCase()   # unittest's assert* methods, lent to Chainer-style tests


_ON_EACH_DEVICE = pytest.mark.parametrize(
    "device_name", ["@numpy", pytest.param("@cupy:0", marks=pytest.mark.gpu, id="@cupy:0")])


class FunctionTestCase:
    __test__ = False
    dtype = numpy.float32
    skip_forward_test = False
    skip_backward_test = False
    skip_double_backward_test = False
    check_forward_options = None
    check_backward_options = None
    check_double_backward_options = None
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    contiguous = "C"

    def setup_method(self, method=None):
        numpy.random.seed(0)
        self.dtype = numpy.dtype(self.dtype)
        # per-test copies, which Chainer's setUp updates in place
        self.check_forward_options = dict(self.check_forward_options or {})
        self.check_backward_options = dict(self.check_backward_options or {})
        self.check_double_backward_options = dict(self.check_double_backward_options or {})
        self.setup()
        if hasattr(self, "setUp"):
            self.setUp()

    def teardown_method(self, method=None):
        if hasattr(self, "tearDown"):
            self.tearDown()

    def __getattr__(self, name):
        if name.startswith("assert") or name in ("fail", "skipTest", "subTest"):
            return getattr(_ASSERTIONS, name)
        raise AttributeError(f"{type(self).__name__} has no attribute {name!r}")

    def before_test(self, test_name):
        """Override to skip a check (``raise unittest.SkipTest``) for some parameters."""

    def setup(self):
        """Override to prepare attributes before inputs are generated."""

    # overridables -----------------------------------------------------------
    def generate_inputs(self):
        raise NotImplementedError

    def forward(self, inputs, device):
        raise NotImplementedError

    def forward_expected(self, inputs):
        raise NotImplementedError

    def generate_grad_outputs(self, outputs_template):
        return tuple(numpy.random.uniform(-1, 1, y.shape).astype(y.dtype)
                     if y.dtype.kind == "f" else None for y in outputs_template)

    def generate_grad_grad_inputs(self, inputs_template):
        return tuple(numpy.random.uniform(-1, 1, x.shape).astype(x.dtype)
                     if x.dtype.kind == "f" else None for x in inputs_template)

    # machinery ----------------------------------------------------------------
    def _inputs(self):
        inputs = self.generate_inputs()
        if not isinstance(inputs, tuple):
            raise TypeError("generate_inputs must return a tuple of arrays")
        return inputs

    def _start(self, device_name, test_name):
        """The device of ``device_name`` (a name or a Chainer ``BackendConfig``), after ``before_test``."""
        self.backend_config = device_name if not isinstance(device_name, str) else None
        self.test_name = test_name
        self.before_test(test_name)
        return backend.get_device(device_name) if self.backend_config is None else self.backend_config.device

    def _context(self):
        return self.backend_config if self.backend_config is not None else contextlib.nullcontext()

    def _arrays(self, arrays):
        return arrays if self.contiguous == "C" else tuple(as_noncontiguous_array(a) for a in arrays)

    def _device_inputs(self, device):
        """The generated inputs sent to ``device``."""
        return self._arrays(tuple(device.send(x) for x in self._inputs()))

    def _options(self, kind):
        given = {"forward": self.check_forward_options, "backward": self.check_backward_options,
                 "double_backward": self.check_double_backward_options}[kind]
        if self.backend_config is not None:     # Chainer's contract: Chainer's defaults
            opts = {} if kind == "forward" else {"dtype": self.numerical_grad_dtype}
            opts.update(given or {})
            return opts
        opts = tolerance(self.dtype, "forward" if kind == "forward" else "backward")
        if kind != "forward":
            opts["dtype"] = numpy.float64
            if self.dtype == numpy.float64:
                opts["eps"] = 1e-4
        opts.update(given or {})
        return opts

    def _forward_fn(self, device):
        def f(*xs):
            with self._context():
                ys = self.forward(xs, device)
            if not isinstance(ys, tuple):
                raise TypeError("forward must return a tuple of Variables")
            return ys
        return f

    def _until_differentiable(self, check):
        """Run ``check``; with ``dodge_nondifferentiable``, again on new inputs while it meets a kink."""
        while True:
            try:
                return check()
            except gradient_check.NondifferentiableError:
                if not self.dodge_nondifferentiable:
                    raise

    @_ON_EACH_DEVICE
    def test_forward(self, device_name):
        if self.skip_forward_test:
            return
        device = self._start(device_name, "test_forward")
        inputs = self._arrays(self._inputs())
        originals = tuple(x.copy() for x in inputs)
        expected = self.forward_expected(tuple(x.copy() for x in inputs))
        sent = self._arrays(tuple(device.send(x) for x in inputs))
        xs = tuple(Variable(x, requires_grad=x.dtype.kind == "f") for x in sent)
        with self._context():
            ys = self.forward(xs, device)
        assert isinstance(ys, tuple), "forward must return a tuple of Variables"
        changed = [i for i, (x, x0) in enumerate(zip(sent, originals))
                   if not numpy.array_equal(backend.CpuDevice().send(x), x0, equal_nan=x0.dtype.kind in "fc")]
        assert not changed, f"forward modified its inputs {changed}"
        assert len(ys) == len(expected), f"{len(ys)} outputs but {len(expected)} expected"
        float_in = {x.dtype for x in inputs if x.dtype.kind == "f"}
        opts = self._options("forward")
        for i, (y, e) in enumerate(zip(ys, expected)):
            e = numpy.asarray(e)
            assert y.dtype == e.dtype, f"output {i} has dtype {y.dtype}, expected {e.dtype}"
            if float_in == {numpy.dtype(numpy.float32)}:
                assert y.dtype != numpy.float64, f"output {i} was upcast from float32 to float64"
            assert_allclose(y.array, e, **opts)

    @_ON_EACH_DEVICE
    def test_backward(self, device_name):
        if self.skip_backward_test:
            return
        device = self._start(device_name, "test_backward")

        def check():
            inputs = self._device_inputs(device)
            with _template_mode():
                template = self._forward_fn(device)(*[Variable(x) for x in inputs])
            gys = self._arrays(tuple(None if g is None else device.send(g)
                                     for g in self.generate_grad_outputs([y.array for y in template])))
            gradient_check.check_backward(self._forward_fn(device), inputs, gys,
                                          detect_nondifferentiable=self.dodge_nondifferentiable,
                                          **self._options("backward"))
        self._until_differentiable(check)

    @_ON_EACH_DEVICE
    def test_backward_arrays(self, device_name):
        if self.skip_backward_test:
            return
        device = self._start(device_name, "test_backward_arrays")
        inputs = self._device_inputs(device)
        if not check_backward_arrays(self._forward_fn(device), inputs):
            pytest.skip("no op of this forward defines backward_arrays")

    @_ON_EACH_DEVICE
    def test_double_backward(self, device_name):
        if self.skip_double_backward_test or self.skip_backward_test:
            return
        device = self._start(device_name, "test_double_backward")

        def check():
            inputs = self._device_inputs(device)
            with _template_mode():
                template = self._forward_fn(device)(*[Variable(x) for x in inputs])
            gys = self._arrays(tuple(None if g is None else device.send(g)
                                     for g in self.generate_grad_outputs([y.array for y in template])))
            ggxs = self._arrays(tuple(None if g is None else device.send(g)
                                      for g in self.generate_grad_grad_inputs(inputs)))
            float_out = [g is not None for g in gys]
            func = self._forward_fn(device)

            def f(*xs):
                ys = func(*xs)
                return tuple(y for y, keep in zip(ys, float_out) if keep)

            with self._context():
                gradient_check.check_double_backward(
                    f, inputs, tuple(g for g in gys if g is not None),
                    tuple(g for g in ggxs if g is not None),
                    detect_nondifferentiable=self.dodge_nondifferentiable, **self._options("double_backward"))
        self._until_differentiable(check)


def _template_mode():
    from kusari.configuration import no_backprop_mode
    return no_backprop_mode()
