"""Chainer's test helpers in kusari.testing: parameterize/product, inject_backend_tests, attr, condition, ..."""
import subprocess
import sys
import unittest
import warnings

import numpy
import pytest

import kusari
from kusari import functions as F
from kusari import testing
from kusari.testing import attr, condition


def test_product_with_comma_keys_and_product_dict():
    got = testing.product({"a,b": [(1, 2), (3, 4)], "c": [5]})
    assert got == [{"a": 1, "b": 2, "c": 5}, {"a": 3, "b": 4, "c": 5}]
    assert testing.product_dict([{"x": 1}, {"x": 2}], [{"y": 0}]) == [{"x": 1, "y": 0}, {"x": 2, "y": 0}]
    assert testing.product([[{"x": 1}], [{"y": 2}, {"y": 3}]]) == [{"x": 1, "y": 2}, {"x": 1, "y": 3}]
    with pytest.raises(ValueError, match="'a,b' needs 2 values per entry"):
        testing.product({"a,b": [(1, 2, 3)]})
    with pytest.raises(TypeError, match="dict of lists"):
        testing.product("ab")
    assert testing.from_pytest_parameterize("p,q", [(1, 2)]) == [{"p": 1, "q": 2}]


_SEEN = []


@testing.parameterize(*testing.product({"dtype": [numpy.float32], "n": [1, 2]}))
@testing.inject_backend_tests(["test_records"], [{}, {"use_cuda": True}])
class _Stacked(unittest.TestCase):

    def test_records(self, backend_config):
        _SEEN.append((self.n, backend_config.device.name))
        assert backend_config.xp is numpy

    def test_plain(self):
        assert self.dtype is numpy.float32


def test_stacked_decorators_generate_chainers_class_names():
    module = sys.modules[__name__]
    cpu = "use_chainerx_false__chainerx_device_None__use_cuda_false__cuda_device_None__use_cudnn_never__" \
          "cudnn_deterministic_false__autotune_false__cudnn_fast_batch_normalization_false__use_ideep_never"
    name = f"_Stacked_{cpu}_param_1_{{dtype=float32, n=2}}"
    assert isinstance(getattr(module, name), type)
    # the methods not injected stay in a variant under the class's own name (parameterized)
    plain = getattr(module, "_Stacked_param_0_{dtype=float32, n=1}")
    assert callable(plain.test_plain) and plain.test_records is None
    # the GPU variant carries the gpu marker
    gpu = [c for n, c in vars(module).items() if n.startswith("_Stacked_") and "use_cuda_true" in n][0]
    assert [m.name for m in gpu.test_records.pytestmark] == ["gpu"]
    assert _Stacked.__test__ is False and len(_Stacked._kusari_variants) == 6
    # an intermediate class (before parameterize) is not left in the module to be collected
    assert not hasattr(module, f"_Stacked_{cpu}")


def test_injected_method_receives_its_backend_config():
    cls = getattr(sys.modules[__name__], "_Stacked_use_chainerx_false__chainerx_device_None__use_cuda_false__"
                  "cuda_device_None__use_cudnn_never__cudnn_deterministic_false__autotune_false__"
                  "cudnn_fast_batch_normalization_false__use_ideep_never_param_0_{dtype=float32, n=1}")
    del _SEEN[:]
    cls("test_records").test_records()
    assert _SEEN == [(1, "@numpy")]


def test_backend_config_rejects_unknown_keys_and_names_its_marks():
    with pytest.raises(ValueError, match="unknown parameter 'use_tpu'"):
        testing.BackendConfig({"use_tpu": True})
    with pytest.raises(TypeError, match="must be a dict"):
        testing.BackendConfig([("use_cuda", True)])
    config = testing.BackendConfig({"use_cuda": True, "use_cudnn": "always", "cuda_device": 1})
    def marks_of(config):
        def f():
            pass
        for mark in config.get_pytest_marks():
            f = mark(f)
        return sorted(m.name for m in f.pytestmark)
    assert marks_of(config) == ["cudnn", "gpu", "gpu", "multi_gpu"]
    assert marks_of(testing.BackendConfig({"use_ideep": "always"})) == ["ideep"]
    with pytest.raises(RuntimeError, match="ChainerX"):
        testing.BackendConfig({"use_chainerx": True, "chainerx_device": "native:0"}).device
    with pytest.raises(TypeError, match="method_names"):
        testing.inject_backend_tests("test_x", [{}])


class TestRetry(unittest.TestCase):

    def setUp(self):
        self.setups = getattr(self, "setups", 0) + 1

    def test_retry_passes_after_failures_and_reruns_setup(self):
        calls = []

        @condition.retry(3)
        def flaky(test):
            calls.append(test.setups)
            assert len(calls) == 3

        flaky(self)
        assert calls == [1, 2, 3]

    def test_repeat_fails_on_any_failure_and_says_how_many(self):
        @condition.repeat(3)
        def second_fails(test, box=[0]):
            box[0] += 1
            assert box[0] != 2

        with pytest.raises(AssertionError, match="1 of 2 trials passed, 3 of 3 needed"):
            second_fails(self)

    def test_skip_is_not_a_failure(self):
        @condition.retry(2)
        def skipped(test):
            raise unittest.SkipTest("no")

        with pytest.raises(unittest.SkipTest):
            skipped(self)


def test_repeat_with_success_at_least_validates():
    with pytest.raises(ValueError, match="min_success"):
        condition.repeat_with_success_at_least(2, 3)


def test_attr_markers_and_their_error():
    assert attr.gpu.name == "gpu" and attr.slow.name == "slow"
    def needs_two():
        pass
    marked = attr.multi_gpu(2)(needs_two)
    assert sorted(m.name for m in marked.pytestmark) == ["gpu", "multi_gpu"]
    with pytest.raises(AttributeError, match="no marker 'tpu'"):
        attr.tpu


def test_assert_warns_with_requires_and_patch():
    with testing.assert_warns(DeprecationWarning):
        warnings.warn("old", DeprecationWarning)
    with pytest.raises(AssertionError, match="UserWarning not triggered"):
        with testing.assert_warns(UserWarning):
            pass
    assert not getattr(testing.with_requires("numpy>=1.0")(lambda: 0), "__unittest_skip__", False)
    assert testing.with_requires("numpy<1.0")(lambda: 0).__unittest_skip__
    assert not getattr(testing.without_requires("no-such-package-kusari")(lambda: 0), "__unittest_skip__", False)
    with testing.patch("kusari.functions.relu") as relu:
        y = kusari.functions.relu(numpy.array([-1.0, 2.0], numpy.float32))
        assert relu.call_count == 1
    assert y.array.tolist() == [0.0, 2.0]   # the patch still calls the real function


def test_fix_random_on_a_method_restores_the_outer_state():
    numpy.random.seed(7)
    expected_after = numpy.random.RandomState(7).uniform(size=2)

    @testing.fix_random()
    def draw():
        return numpy.random.uniform(size=3)

    assert numpy.array_equal(draw(), draw())
    numpy.testing.assert_array_equal(numpy.random.uniform(size=2), expected_after)
    with pytest.raises(RuntimeError, match="fix_random"):
        testing.generate_seed()


@testing.unary_math_function_unittest(F.sin)
class TestSinByTheDecorator(unittest.TestCase):
    pass


def test_unary_math_function_unittest_generates_six_classes():
    names = [n for n in vars(sys.modules[__name__]) if n.startswith("TestSinByTheDecorator_param_")]
    assert len(names) == 6
    cls = getattr(sys.modules[__name__], names[0])
    assert {"test_forward_cpu", "test_backward_cpu", "test_double_backward_cpu"} <= set(dir(cls))
    with pytest.raises(ValueError, match="NumPy has no function 'relu'"):
        testing.unary_math_function_unittest(F.relu)


def test_importing_kusari_testing_does_not_import_pytest():
    code = "import sys, kusari.testing; assert 'pytest' not in sys.modules, 'pytest imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


@testing.inject_backend_tests(None, [{}])
class TestLinearByLinkTestCase(testing.LinkTestCase):
    param_names = ("W", "b")

    def generate_params(self):
        return (numpy.random.uniform(-1, 1, (3, 2)).astype(numpy.float32),
                numpy.random.uniform(-1, 1, (3,)).astype(numpy.float32))

    def generate_inputs(self):
        return numpy.random.uniform(-1, 1, (4, 2)).astype(numpy.float32),

    def create_link(self, initializers):
        W, b = initializers
        return kusari.links.Linear(2, 3, initialW=W, initial_bias=b)

    def forward_expected(self, link, inputs):
        x, = inputs
        return x.dot(link.W.array.T) + link.b.array,


class _WrongLinear(kusari.links.Linear):
    def forward(self, x):
        return super().forward(x) * 1.01   # a forward off by 1 %; its backward stays right


def test_link_test_case_finds_a_wrong_forward():
    @testing.inject_backend_tests(None, [{}])
    class Wrong(TestLinearByLinkTestCase):
        def create_link(self, initializers):
            W, b = initializers
            return _WrongLinear(2, 3, initialW=W, initial_bias=b)
    cpu = [c for name, c in vars(sys.modules[__name__]).items()
           if name.startswith("Wrong_use_chainerx_false")][0]
    with pytest.raises(AssertionError):
        cpu("test_forward").test_forward()
    cpu("test_backward").test_backward()
    delattr(sys.modules[__name__], cpu.__name__)


@testing.inject_backend_tests(None, [{}])
class TestLinearInitializers(TestLinearByLinkTestCase, testing.LinkInitializersTestCase):

    def get_initializers(self):
        return ([kusari.initializers.Constant(1.5), 2.0],
                [kusari.initializers.Constant(2.0), 3.0, testing.InitializerArgument(None, 0)])


def test_link_initializers_test_case_runs_on_every_initializer():
    cls = [c for name, c in vars(sys.modules[__name__]).items()
           if name.startswith("TestLinearInitializers_use_chainerx_false")][0]
    assert callable(cls.test_initializers)
