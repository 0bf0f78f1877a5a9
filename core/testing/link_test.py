"""``LinkTestCase``: Chainer's harness for a link's forward (against a reference) and backward.

A subclass (decorated with ``@inject_backend_tests``) implements ``generate_params() -> tuple of
initializers`` (arrays or initializer objects), ``create_link(initializers) -> Link``,
``generate_inputs() -> tuple of arrays``, ``forward_expected(link, inputs) -> tuple of arrays``
and optionally ``forward(link, inputs, device)``; ``param_names`` lists the parameters whose
gradients ``test_backward`` checks along with the inputs'.
"""
import unittest

import numpy

from kusari import backend, gradient_check
from kusari.testing.array import as_noncontiguous_array, assert_allclose
from kusari.variable import Variable


class InitializerArgument:
    """An initializer argument ``argument_value`` passed to the link and the initializer it stands for."""

    def __init__(self, argument_value, expected_initializer):
        if expected_initializer is None:
            raise ValueError("InitializerArgument: expected_initializer must not be None")
        self.argument_value = argument_value
        self.expected_initializer = expected_initializer


def _argument(init):
    return init.argument_value if isinstance(init, InitializerArgument) else init


class LinkTestCase(unittest.TestCase):
    param_names = ()
    skip_forward_test = False
    skip_backward_test = False
    dodge_nondifferentiable = False
    numerical_grad_dtype = numpy.float64
    contiguous = None
    check_forward_options = None
    check_backward_options = None

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # per-test dicts, which a subclass's setUp updates in place
        self.check_forward_options = dict(type(self).check_forward_options or {})
        self.check_backward_options = dict(type(self).check_backward_options or {})

    def before_test(self, test_name):
        """Override to skip a test (``raise unittest.SkipTest``) for some parameters."""

    def generate_params(self):
        raise NotImplementedError(f"{type(self).__name__}.generate_params is not implemented")

    def generate_inputs(self):
        raise NotImplementedError(f"{type(self).__name__}.generate_inputs is not implemented")

    def create_link(self, initializers):
        raise NotImplementedError(f"{type(self).__name__}.create_link is not implemented")

    def forward(self, link, inputs, device):
        outputs = link(*inputs)
        return outputs if isinstance(outputs, tuple) else (outputs,)

    def forward_expected(self, link, inputs):
        raise NotImplementedError(f"{type(self).__name__}.forward_expected is not implemented")

    def generate_grad_outputs(self, outputs_template):
        return tuple(numpy.random.uniform(-1, 1, a.shape).astype(a.dtype) for a in outputs_template)

    def check_forward_outputs(self, outputs, expected_outputs):
        if len(outputs) != len(expected_outputs):
            raise AssertionError(f"forward gave {len(outputs)} outputs, {len(expected_outputs)} expected")
        for i, (y, e) in enumerate(zip(outputs, expected_outputs)):
            y, e = backend.CpuDevice().send(y), numpy.asarray(e)
            if y.dtype != e.dtype or y.shape != e.shape:
                raise AssertionError(f"output {i}: {y.shape} {y.dtype}, expected {e.shape} {e.dtype}")
            assert_allclose(y, e, **self.check_forward_options)

    # machinery -----------------------------------------------------------------
    def _arrays(self, arrays):
        return tuple(arrays) if self.contiguous == "C" else tuple(as_noncontiguous_array(a) for a in arrays)

    def _link(self, config):
        params = self.generate_params()
        if not isinstance(params, (tuple, list)):
            raise TypeError(f"{type(self).__name__}.generate_params must return a tuple or a list")
        link = self.create_link([_argument(p) for p in params])
        link.to_device(config.device)
        return link

    def _forward(self, link, inputs, config):
        with config:
            outputs = self.forward(link, inputs, config.device)
        if not isinstance(outputs, tuple) or not all(isinstance(y, Variable) for y in outputs):
            raise TypeError(f"{type(self).__name__}.forward must return a tuple of Variables")
        return outputs

    def test_forward(self, backend_config):
        if self.skip_forward_test:
            raise unittest.SkipTest("skip_forward_test is set")
        self.backend_config = backend_config
        self.before_test("test_forward")
        link = self._link(backend_config)
        inputs = self.generate_inputs()
        xs = tuple(Variable(x) for x in self._arrays(backend_config.get_array(inputs)))
        outputs = [y.array for y in self._forward(link, xs, backend_config)]
        link.to_device(backend.CpuDevice())
        self.check_forward_outputs(tuple(outputs), tuple(self.forward_expected(link, inputs)))

    def test_backward(self, backend_config):
        if self.skip_backward_test:
            raise unittest.SkipTest("skip_backward_test is set")
        self.backend_config = backend_config
        self.before_test("test_backward")

        def check():
            link = self._link(backend_config)
            inputs = self._arrays(backend_config.get_array(self.generate_inputs()))
            template = self._forward(link, tuple(Variable(x) for x in inputs), backend_config)
            gys = self._arrays(backend_config.get_array(
                self.generate_grad_outputs([backend.CpuDevice().send(y.array) for y in template])))
            link.cleargrads()
            params = [getattr(link, name) for name in self.param_names]
            gradient_check.check_backward(
                lambda *xs: self._forward(link, xs, backend_config), inputs, gys, params=params,
                dtype=self.numerical_grad_dtype, detect_nondifferentiable=self.dodge_nondifferentiable,
                **self.check_backward_options)
        while True:
            try:
                return check()
            except gradient_check.NondifferentiableError:
                if not self.dodge_nondifferentiable:
                    raise


class LinkInitializersTestCase(LinkTestCase):
    """Checks that each parameter of ``param_names`` takes the values its initializer argument gives.

    ``get_initializers() -> one list per parameter`` of initializer arguments (arrays, scalars,
    Initializers with deterministic values, or ``InitializerArgument(None, expected)`` for a default);
    each is passed in turn, the others coming from ``generate_params``.
    """
    check_initializers_options = None

    def get_initializers(self):
        raise NotImplementedError(f"{type(self).__name__}.get_initializers is not implemented")

    def test_initializers(self, backend_config):
        from kusari import initializers
        self.backend_config = backend_config
        self.before_test("test_initializers")
        options = dict(self.check_initializers_options or {})
        for i, candidates in enumerate(self.get_initializers()):
            for init in candidates:
                params = list(self.generate_params())
                params[i] = init
                link = self.create_link([_argument(p) for p in params])
                link.to_device(backend_config.device)
                # lazily shaped parameters get their shape from a first forward
                self._forward(link, tuple(Variable(x) for x in backend_config.get_array(self.generate_inputs())),
                              backend_config)
                actual = backend.CpuDevice().send(getattr(link, self.param_names[i]).array)
                expected_init = init.expected_initializer if isinstance(init, InitializerArgument) else init
                if not isinstance(expected_init, initializers.Initializer):
                    expected_init = initializers.Constant(expected_init)
                expected = numpy.empty_like(actual)
                expected_init(expected)
                assert_allclose(actual, expected, **options)
