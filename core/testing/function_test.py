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
"""
import numpy
import pytest

from kusari import backend, gradient_check
from kusari.testing.array import assert_allclose, tolerance
from kusari.testing.backward_arrays import check_backward_arrays
from kusari.variable import Variable


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

    def setup_method(self, method=None):
        numpy.random.seed(0)
        self.dtype = numpy.dtype(self.dtype)
        self.setup()

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

    def _device_inputs(self, device_name):
        """The device named ``device_name`` and the generated inputs sent to it."""
        device = backend.get_device(device_name)
        return device, tuple(device.send(x) for x in self._inputs())

    def _options(self, kind):
        given = {"forward": self.check_forward_options, "backward": self.check_backward_options,
                 "double_backward": self.check_double_backward_options}[kind]
        opts = tolerance(self.dtype, "forward" if kind == "forward" else "backward")
        if kind != "forward":
            opts["dtype"] = numpy.float64
            if self.dtype == numpy.float64:
                opts["eps"] = 1e-4
        opts.update(given or {})
        return opts

    def _forward_fn(self, device):
        def f(*xs):
            ys = self.forward(xs, device)
            if not isinstance(ys, tuple):
                raise TypeError("forward must return a tuple of Variables")
            return ys
        return f

    @_ON_EACH_DEVICE
    def test_forward(self, device_name):
        if self.skip_forward_test:
            return
        inputs = self._inputs()
        expected = self.forward_expected(tuple(x.copy() for x in inputs))
        device = backend.get_device(device_name)
        xs = tuple(Variable(device.send(x)) for x in inputs)
        ys = self.forward(xs, device)
        assert isinstance(ys, tuple), "forward must return a tuple of Variables"
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
        device, inputs = self._device_inputs(device_name)
        with _template_mode():
            template = self._forward_fn(device)(*[Variable(x) for x in inputs])
        gys = tuple(None if g is None else device.send(g)
                    for g in self.generate_grad_outputs([y.array for y in template]))
        gradient_check.check_backward(self._forward_fn(device), inputs, gys,
                                      **self._options("backward"))

    @_ON_EACH_DEVICE
    def test_backward_arrays(self, device_name):
        if self.skip_backward_test:
            return
        device, inputs = self._device_inputs(device_name)
        if not check_backward_arrays(self._forward_fn(device), inputs):
            pytest.skip("no op of this forward defines backward_arrays")

    @_ON_EACH_DEVICE
    def test_double_backward(self, device_name):
        if self.skip_double_backward_test or self.skip_backward_test:
            return
        device, inputs = self._device_inputs(device_name)
        with _template_mode():
            template = self._forward_fn(device)(*[Variable(x) for x in inputs])
        gys = tuple(None if g is None else device.send(g)
                    for g in self.generate_grad_outputs([y.array for y in template]))
        ggxs = tuple(None if g is None else device.send(g)
                     for g in self.generate_grad_grad_inputs(inputs))
        float_out = [g is not None for g in gys]
        func = self._forward_fn(device)

        def f(*xs):
            ys = func(*xs)
            return tuple(y for y, keep in zip(ys, float_out) if keep)

        gradient_check.check_double_backward(
            f, inputs, tuple(g for g in gys if g is not None),
            tuple(g for g in ggxs if g is not None), **self._options("double_backward"))


def _template_mode():
    from kusari.configuration import no_backprop_mode
    return no_backprop_mode()
