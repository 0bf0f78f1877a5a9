import gc
import weakref

import numpy
import pytest

import kusari
import kusari.functions as F


def test_backward_accumulates_into_leaves():
    x = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32))
    F.sum(x * x).backward()
    F.sum(x * x).backward()
    numpy.testing.assert_allclose(x.grad, [4.0, 8.0])
    x.cleargrad()
    assert x.grad is None


def test_retain_grad_keeps_intermediate_gradients():
    x = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32))
    h = x * 3
    y = F.sum(h * h)
    y.backward()
    assert h.grad is None
    y.backward(retain_grad=True)
    numpy.testing.assert_allclose(h.grad, 2 * h.array)


def test_nonscalar_backward_requires_grad():
    x = kusari.Variable(numpy.ones(3, numpy.float32))
    with pytest.raises(ValueError, match="has no gradient"):
        (x * 2).backward()


def test_loss_scale_multiplies_seed():
    x = kusari.Variable(numpy.ones(2, numpy.float32))
    F.sum(x * 2).backward(loss_scale=8)
    numpy.testing.assert_allclose(x.grad, [16.0, 16.0])


def test_double_backprop_gradient_penalty():
    x = kusari.Variable(numpy.array([0.5, -1.0], numpy.float64))
    y = F.sum(x ** 3)
    gx, = kusari.grad([y], [x], enable_double_backprop=True)
    penalty = F.sum(gx * gx)
    penalty.backward()
    # d/dx sum((3x^2)^2) = 36 x^3
    numpy.testing.assert_allclose(x.grad, 36 * x.array ** 3)


def test_backward_multiple_outputs():
    x = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32))
    a = F.sum(x * 2)
    b = F.sum(x * x)
    kusari.backward([a, b])
    numpy.testing.assert_allclose(x.grad, 2 + 2 * x.array)


def test_no_backprop_mode_records_nothing():
    x = kusari.Variable(numpy.ones(2, numpy.float32))
    with kusari.no_backprop_mode():
        y = x * 2
        with kusari.force_backprop_mode():
            z = x * 2
    assert y.creator is None
    assert z.creator is not None


def test_graph_does_not_keep_unneeded_activations():
    x = kusari.Variable(numpy.ones(1000, numpy.float32))
    h = x + 1          # AddConstant retains nothing
    ref = weakref.ref(h)
    y = F.sum(h)
    del h
    gc.collect()
    assert ref() is None
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.ones(1000))


def test_unchain_backward_cuts_graph():
    x = kusari.Variable(numpy.ones(2, numpy.float32))
    y = F.sum(x * 2)
    y.unchain_backward()
    assert y.creator is None
    y.backward()
    assert x.grad is None


def test_variable_rejects_python_scalars():
    with pytest.raises(TypeError, match="numpy.asarray"):
        kusari.Variable(1.0)


def test_repr_and_item():
    x = kusari.Variable(numpy.array([1.5], numpy.float32), name="w")
    assert "variable([1.5]" in repr(x) and "name='w'" in repr(x)
    assert x.item() == 1.5
    assert len(x) == 1


def test_grad_does_not_run_functions_upstream_of_the_inputs():
    calls = []

    class Spy(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            calls.append(1)
            return grad_outputs[0] * 2,

    x = kusari.Variable(numpy.ones(2, numpy.float32))
    y = Spy().apply((x,))[0]
    z = F.sum(y * y)
    gy, = kusari.grad([z], [y])
    numpy.testing.assert_allclose(gy.array, 2 * y.array)
    assert calls == []
    assert x.grad is None


def test_grad_through_one_target_to_another():
    x = kusari.Variable(numpy.array([2.0], numpy.float32))
    y = x * 3
    z = F.sum(y * y)
    gx, gy = kusari.grad([z], [x, y])
    numpy.testing.assert_allclose(gy.array, [12.0])
    numpy.testing.assert_allclose(gx.array, [36.0])


def test_grad_asks_no_gradient_for_inputs_off_the_path_to_its_targets():
    requested = []

    class Product(kusari.FunctionNode):   # records which inputs backprop asks gradients for
        def forward(self, inputs):
            self.retain_inputs((0, 1))
            return inputs[0] * inputs[1],

        def backward(self, indexes, grad_outputs):
            requested.append(indexes)
            a, b = self.get_retained_inputs()
            return tuple(grad_outputs[0] * (b if i == 0 else a) for i in indexes)

    policy_weight = kusari.Parameter(numpy.array([2.0], numpy.float32))
    critic_weight = kusari.Parameter(numpy.array([3.0], numpy.float32))
    action = policy_weight * 1.5
    q = F.sum(Product().apply((action, critic_weight))[0])
    gw, = kusari.grad([q], [policy_weight])
    assert requested == [(0,)]                    # the critic's weight got no gradient computed
    numpy.testing.assert_allclose(gw.array, [4.5])
    q.backward()                                  # backward still computes every gradient
    assert requested[-1] == (0, 1) and critic_weight.grad is not None


def test_parameter_lazy_initialization_and_nan_default():
    p = kusari.Parameter()
    assert p.array is None and not p.is_initialized
    p.initialize((2, 3))
    assert p.shape == (2, 3) and numpy.isnan(p.array).all()
    q = kusari.Parameter(kusari.initializers.One(), (4,))
    numpy.testing.assert_array_equal(q.array, numpy.ones(4, numpy.float32))
    r = kusari.Parameter(2.5, 3)
    numpy.testing.assert_array_equal(r.array, numpy.full(3, 2.5, numpy.float32))


def test_parameter_follows_config_dtype():
    with kusari.using_config("dtype", numpy.float64):
        p = kusari.Parameter(0.0, (2,))
    assert p.dtype == numpy.float64


def test_parameter_pickle_and_deepcopy_keep_values():
    import copy
    import pickle
    p = kusari.Parameter(numpy.arange(3, dtype=numpy.float32), name="w")
    p.grad = numpy.ones(3, numpy.float32)
    for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
        numpy.testing.assert_array_equal(q.array, p.array)
        numpy.testing.assert_array_equal(q.grad, p.grad)
        assert q.name == "w" and q.array is not p.array
        assert q.node.get_variable_or_none() is q


def test_zerograd_addgrad_copydata():
    a = kusari.Variable(numpy.ones(2, numpy.float32))
    b = kusari.Variable(numpy.full(2, 3, numpy.float32), grad=numpy.full(2, 2, numpy.float32))
    a.zerograd()
    numpy.testing.assert_array_equal(a.grad, [0, 0])
    a.addgrad(b)
    a.addgrad(b)
    numpy.testing.assert_array_equal(a.grad, [4, 4])
    a.copydata(b)
    numpy.testing.assert_array_equal(a.array, [3, 3])


def test_variable_methods_build_graph():
    x = kusari.Variable(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    y = x.reshape(3, 2).transpose().T.sum(axis=1) + x.mean()
    numpy.testing.assert_allclose(y.array, x.array.reshape(3, 2).sum(axis=1) + 2.5)
    y.grad = numpy.ones(3, numpy.float32)
    y.backward()
    numpy.testing.assert_allclose(x.grad, numpy.full((2, 3), 1 + 3 / 6))


def test_retained_output_node_recreated_after_output_dies():
    x = kusari.Variable(numpy.array([0.5, 1.0], numpy.float64))
    y = F.exp(x)          # Exp retains its output
    z = F.sum(y * 2)
    del y                 # the output Variable dies; backward must rebuild it from retained data
    gx, = kusari.grad([z], [x], enable_double_backprop=True)
    numpy.testing.assert_allclose(gx.array, 2 * numpy.exp(x.array))
    F.sum(gx).backward()
    numpy.testing.assert_allclose(x.grad, 2 * numpy.exp(x.array))


def test_backward_rejects_wrong_gradient_shape():
    class Bad(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return kusari.Variable(numpy.ones(5, numpy.float32)),

    x = kusari.Variable(numpy.ones(2, numpy.float32))
    y = F.sum(Bad().apply((x,))[0])
    with pytest.raises(ValueError, match=r"Bad.backward returned a gradient of shape \(5,\)"):
        y.backward()


def test_forward_must_return_tuple():
    class NoTuple(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0]

    with pytest.raises(TypeError, match="NoTuple.forward must return a tuple"):
        NoTuple().apply((numpy.ones(1, numpy.float32),))


def test_old_style_function_with_retain_inputs_and_multiple_outputs():
    class SplitScale(kusari.Function):
        def forward(self, inputs):
            self.retain_inputs(())
            x, = inputs
            return x * 2, x * 3

        def backward(self, inputs, grad_outputs):
            assert inputs == (None,)
            g2, g3 = grad_outputs
            return g2 * 2 + g3 * 3,

    x = kusari.Variable(numpy.array([1.0, 2.0], numpy.float32))
    a, b = SplitScale()(x)
    F.sum(a).backward()          # b gets no gradient: the adapter passes zeros for it
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])
    assert a.creator.label == "SplitScale"


def _mlp_grads(enable_double_backprop, reduce="mean"):
    rng = numpy.random.default_rng(3)
    x = kusari.Variable(rng.standard_normal((2, 3, 5)).astype(numpy.float32))
    W1 = kusari.Variable(rng.standard_normal((4, 5)).astype(numpy.float32))
    b1 = kusari.Variable(rng.standard_normal(4).astype(numpy.float32))
    W2 = kusari.Variable(rng.standard_normal((3, 4)).astype(numpy.float32))
    t = numpy.array([[0, 2, -1], [1, 1, 0]], numpy.int32).reshape(6)
    h = F.leaky_relu(F.linear(x, W1, b1, n_batch_axes=2), slope=0.1)
    y = F.relu(F.linear(F.reshape(h, (6, 4)), W2))
    loss = F.softmax_cross_entropy(y, t, reduce=reduce)
    if reduce == "no":
        loss = F.sum(loss * loss)
    loss.backward(enable_double_backprop=enable_double_backprop)
    return [v.grad for v in (x, W1, b1, W2)]


@pytest.mark.parametrize("reduce", ["mean", "no"])
def test_array_level_backward_matches_variable_level_bit_for_bit(reduce):
    # Without double backprop the engine takes the ops' array-level backward; with it, the
    # Variable-level one. They must agree exactly.
    fast = _mlp_grads(False, reduce)
    graph = _mlp_grads(True, reduce)
    for a, b in zip(fast, graph):
        assert a.dtype == numpy.float32
        numpy.testing.assert_array_equal(a, b)


def test_array_level_backward_matches_closed_form():
    rng = numpy.random.default_rng(4)
    x = rng.standard_normal((4, 5)).astype(numpy.float32)
    W = rng.standard_normal((3, 5)).astype(numpy.float32)
    b = rng.standard_normal(3).astype(numpy.float32)
    t = numpy.array([0, 2, 1, 2], numpy.int32)
    xv, Wv, bv = kusari.Variable(x), kusari.Variable(W), kusari.Variable(b)
    F.softmax_cross_entropy(F.relu(F.linear(xv, Wv, bv)), t).backward()

    h = x.astype(numpy.float64) @ W.T + b
    y = numpy.maximum(h, 0)
    p = numpy.exp(y - y.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    dy = (p - numpy.eye(3)[t]) / len(t)
    dh = dy * (h > 0)
    numpy.testing.assert_allclose(Wv.grad, dh.T @ x, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(bv.grad, dh.sum(axis=0), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(xv.grad, dh @ W, rtol=1e-5, atol=1e-6)


def test_backward_without_double_backprop_runs_backward_recording_no_graph():
    """The one gradient definition serves both paths: without double backprop an op's backward
    runs on node-less Variables and the ops it applies record nothing, with the same bits."""
    seen = []

    class Cube(kusari.FunctionNode):
        def forward(self, inputs):
            self.retain_inputs((0,))
            return inputs[0] ** 3,

        def backward(self, indexes, grad_outputs):
            x, = self.get_retained_inputs()
            gy, = grad_outputs
            gx = gy * (x * x) * 3.0
            seen.append((gy, gx))
            return gx,

    data = numpy.random.default_rng(0).standard_normal((2, 3)).astype(numpy.float32)
    grads = {}
    for double in (False, True):
        seen.clear()
        x = kusari.Variable(data.copy())
        y = Cube().apply((x,))[0]
        y.grad = numpy.ones_like(data)
        y.backward(enable_double_backprop=double)
        grads[double] = x.grad
        (gy, gx), = seen
        if double:
            assert gx.creator_node is not None      # a graph of the backward, to differentiate
        else:
            assert not _has_node(gy) and not _has_node(gx)
    numpy.testing.assert_array_equal(grads[False], grads[True])
    numpy.testing.assert_allclose(grads[False], 3 * data ** 2, rtol=1e-6)


def _has_node(var):
    """Whether ``var`` has its node already (a node-less one makes it on first use)."""
    try:
        object.__getattribute__(var, "_node")
    except AttributeError:
        return False
    return True


def test_subclass_overriding_backward_does_not_inherit_array_backward():
    from kusari.functions.activation.relu import ReLU

    class DoubledReLU(ReLU):
        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

    assert ReLU.backward_arrays is not None
    assert DoubledReLU.backward_arrays is None
    x = kusari.Variable(numpy.array([-1.0, 2.0], numpy.float32))
    F.sum(DoubledReLU().apply((x,))[0]).backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_subclass_overriding_backward_may_keep_array_backward_explicitly():
    from kusari.functions.activation.relu import ReLU

    class LoggedReLU(ReLU):
        calls = 0

        def backward(self, indexes, grad_outputs):
            LoggedReLU.calls += 1
            return super().backward(indexes, grad_outputs)

        backward_arrays = ReLU.backward_arrays

    assert LoggedReLU.backward_arrays is ReLU.backward_arrays
    x = kusari.Variable(numpy.array([-1.0, 2.0], numpy.float32))
    F.sum(LoggedReLU().apply((x,))[0]).backward()
    numpy.testing.assert_array_equal(x.grad, [0.0, 1.0])
    assert LoggedReLU.calls == 0                        # the array path ran


def test_array_backward_returning_none_defers_to_backward():
    class Twice(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

        def backward_arrays(self, indexes, grad_outputs):
            return None

    x = kusari.Variable(numpy.array([1.0, 3.0], numpy.float32))
    F.sum(Twice().apply((x,))[0]).backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 2.0])


def test_array_backward_wrong_shape_is_reported():
    class BadArrays(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

        def backward_arrays(self, indexes, grad_outputs):
            return numpy.ones(3, numpy.float32),

    x = kusari.Variable(numpy.ones(2, numpy.float32))
    with pytest.raises(ValueError, match=r"BadArrays.backward_arrays returned a gradient of shape \(3,\)"):
        F.sum(BadArrays().apply((x,))[0]).backward()


def test_array_backward_returning_a_scalar_is_reported():
    class ScalarGrad(kusari.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * 2,

        def backward_arrays(self, indexes, grad_outputs):
            return numpy.float32(2.0),

    x = kusari.Variable(numpy.array([1.0], numpy.float32))
    with pytest.raises(TypeError, match="ScalarGrad.backward_arrays must return arrays or None, "
                                        "got float32 for input 0"):
        ScalarGrad().apply((x,))[0].backward()


def test_zero_dim_gradients_accumulate_as_arrays():
    # x feeds two ops, so its 0-d gradients are summed; NumPy would turn that sum into a scalar.
    x = kusari.Variable(numpy.array(3.0, numpy.float32))
    y = x * x + x
    y.backward()
    assert type(x.grad) is numpy.ndarray and x.grad.dtype == numpy.float32
    assert x.grad == 7.0
    assert type(x.grad_var) is kusari.Variable and not x.grad_var.requires_grad


def test_gradient_variables_get_their_node_on_first_use():
    """Backward makes gradient Variables without a node; using one in an op, copying or pickling it
    makes the node then."""
    import copy
    import pickle
    x = kusari.Variable(numpy.arange(3, dtype=numpy.float32))
    F.sum(x * x).backward()
    g = x.grad_var
    assert g.creator is None and not g.requires_grad
    y = F.sum(g * 2)                                   # an op on the gradient: its node is made here
    assert y.array == 12.0                              # 2 * (0 + 2 + 4)
    for clone in (copy.deepcopy(g), pickle.loads(pickle.dumps(g))):
        numpy.testing.assert_array_equal(clone.array, [0, 2, 4])
        assert clone.creator is None
    with pytest.raises(AttributeError, match="'Variable' object has no attribute 'no_such_name'"):
        g.no_such_name


def test_leaves_never_share_a_gradient_array():
    # add passes one gradient to both inputs; in-place hooks (GradientClipping) must not scale it twice
    a = kusari.Parameter(numpy.ones(3, numpy.float32))
    b = kusari.Parameter(numpy.ones(3, numpy.float32))
    F.sum(a + b).backward()
    assert not numpy.shares_memory(a.grad, b.grad)
    a.grad *= 0.5
    numpy.testing.assert_array_equal(b.grad, numpy.ones(3, numpy.float32))
    ga, gb = kusari.grad([F.sum(a + b)], [a, b])
    assert not numpy.shares_memory(ga.array, gb.array)


def test_a_broadcast_gradient_reaches_a_leaf_writable():
    # sum's backward broadcasts its gradient: a read-only view, until the leaf gets it
    link = kusari.links.Linear(3, 2)
    optimizer = kusari.optimizers.SGD(lr=0.1).setup(link)
    optimizer.add_hook(kusari.optimizer_hooks.GradientClipping(0.01))
    F.sum(link.W).backward()
    assert link.W.grad.flags.writeable
    numpy.testing.assert_array_equal(link.W.grad, numpy.ones((2, 3), numpy.float32))
    before = link.W.array.copy()
    optimizer.update()   # clipping scales the gradient in place
    numpy.testing.assert_allclose(before - link.W.array, 0.1 * 0.01 / numpy.sqrt(6), rtol=1e-3)  # float32 steps


def test_uninitialized_parameter_dtype_is_the_initializers():
    assert kusari.Parameter(kusari.initializers.Normal(dtype=numpy.float16)).dtype == numpy.float16
    p = kusari.Parameter(lambda array: None)
    with pytest.raises(RuntimeError, match="dtype is not known until it is initialized"):
        p.dtype
    p.initialize((2,))
    assert p.dtype == numpy.float32


def test_copydata_initializes_an_uninitialized_parameter_on_either_side():
    src = kusari.Parameter(numpy.arange(3, dtype=numpy.float32))
    dst = kusari.Parameter()
    dst.copydata(src)
    numpy.testing.assert_array_equal(dst.array, src.array)
    zero = kusari.Parameter(kusari.initializers.Zero())
    src.copydata(zero)  # the source is made with its own initializer, then copied
    numpy.testing.assert_array_equal(src.array, numpy.zeros(3, numpy.float32))
    a, b = kusari.Parameter(), kusari.Parameter()
    a.copydata(b)
    assert a.array is None and b.array is None


def test_grad_must_match_the_data():
    v = kusari.Variable(numpy.zeros(3, numpy.float32))
    with pytest.raises(TypeError, match=r"Variable.grad: a gradient of shape \(3,\) and dtype float64"):
        v.grad = numpy.zeros(3, numpy.float64)
    with pytest.raises(ValueError, match=r"Variable.grad: a gradient of shape \(2,\) and dtype float32"):
        v.grad = numpy.zeros(2, numpy.float32)
    v.grad = numpy.ones(3, numpy.float32)
    numpy.testing.assert_array_equal(v.grad, numpy.ones(3, numpy.float32))
