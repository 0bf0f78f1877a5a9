import numpy
import pytest

import kusari
import kusari.functions as F
from kusari import testing


def two_outputs(a, b):
    return a * b + F.exp(a), F.sum(a * a * b, axis=1)


def one_output(a, b):
    return F.exp(a * b) - b * b


@testing.parameterize(*testing.product({
    "func": ["one_output", "two_outputs"],
    "dtype": [numpy.float32, numpy.float64],
}))
class TestForget(testing.FunctionTestCase):
    def generate_inputs(self):
        return (numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype),
                numpy.random.uniform(-1, 1, (3, 4)).astype(self.dtype))

    def forward(self, inputs, device):
        ys = F.forget(globals()[self.func], *inputs)
        return ys if isinstance(ys, tuple) else (ys,)

    def forward_expected(self, inputs):
        a, b = (x.astype(numpy.float64) for x in inputs)
        if self.func == "one_output":
            return (numpy.exp(a * b) - b * b).astype(self.dtype),
        return (a * b + numpy.exp(a)).astype(self.dtype), (a * a * b).sum(axis=1).astype(self.dtype)


def _counting(func):
    def wrapped(*xs):
        wrapped.calls += 1
        return func(*xs)
    wrapped.calls = 0
    return wrapped


def test_same_gradients_as_direct_call_and_one_recomputation():
    rng = numpy.random.default_rng(0)
    a0, b0 = rng.uniform(-1, 1, (3, 4)), rng.uniform(-1, 1, (3, 4))
    grads = []
    for use_forget in (False, True):
        a, b = kusari.Variable(a0.copy()), kusari.Variable(b0.copy())
        func = _counting(two_outputs)
        y1, y2 = F.forget(func, a, b) if use_forget else func(a, b)
        (F.sum(y1 * y1) + F.sum(y2)).backward()
        assert func.calls == (2 if use_forget else 1)
        grads.append((a.grad, b.grad))
    for direct, forgotten in zip(*grads):
        numpy.testing.assert_allclose(forgotten, direct, rtol=1e-12)


def test_intermediate_results_are_not_kept():
    a = kusari.Variable(numpy.ones(3, numpy.float32))
    b = kusari.Variable(numpy.ones(3, numpy.float32))
    y = F.forget(one_output, a, b)
    node = y.creator_node
    assert "Forget" in node.label
    # the recorded graph goes straight from the inputs to the output
    assert node.inputs == (a.node, b.node)
    assert a.creator_node is None and b.creator_node is None


def test_gradient_through_one_of_two_outputs():
    a = kusari.Variable(numpy.array([[0.5, -1.0]]))
    b = kusari.Variable(numpy.array([[2.0, 3.0]]))
    _, y2 = F.forget(two_outputs, a, b)
    y2.backward()
    numpy.testing.assert_allclose(a.grad, 2 * a.array * b.array)
    numpy.testing.assert_allclose(b.grad, a.array ** 2)


def test_third_derivative():
    x = kusari.Variable(numpy.array([1.5, -2.0]))
    y = F.forget(lambda v: v * v * v, x)
    g1, = kusari.grad([y], [x], [numpy.ones(2)], enable_double_backprop=True)
    g2, = kusari.grad([g1], [x], [numpy.ones(2)], enable_double_backprop=True)
    g3, = kusari.grad([g2], [x], [numpy.ones(2)])
    numpy.testing.assert_allclose(g1.array, 3 * x.array ** 2)
    numpy.testing.assert_allclose(g2.array, 6 * x.array)
    numpy.testing.assert_allclose(g3.array, [6.0, 6.0])


def test_input_without_influence_gets_zero_gradient():
    a = kusari.Variable(numpy.ones(2))
    b = kusari.Variable(numpy.ones(2))
    y = F.forget(lambda a, b: a * 2.0, a, b)
    F.sum(y).backward()
    numpy.testing.assert_array_equal(a.grad, [2.0, 2.0])
    numpy.testing.assert_array_equal(b.grad, [0.0, 0.0])


def test_array_arguments_are_not_differentiated():
    a = kusari.Variable(numpy.ones(2))
    y = F.forget(lambda a, b: a * b, a, numpy.array([3.0, 4.0]))
    F.sum(y).backward()
    numpy.testing.assert_array_equal(a.grad, [3.0, 4.0])


def test_non_callable_rejected():
    with pytest.raises(TypeError, match="forget: func must be callable, got int"):
        F.forget(3, numpy.ones(2))


def test_non_variable_result_rejected():
    with pytest.raises(TypeError, match=r"forget: func must return a Variable or a non-empty tuple "
                                        r"of Variables, got \(Variable, ndarray\)"):
        F.forget(lambda x: (x, x.array), numpy.ones(2))
