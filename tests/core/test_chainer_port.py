"""Chainer v7 user programs that run with only the import renamed (``chainer`` -> ``kusari``)."""
import numpy

import kusari as chainer
import kusari.functions as F
import kusari.links as L
from kusari import optimizers
from kusari.backend import get_array_module


class ScaledLinear(chainer.Link):
    """A user Link with init_scope and Parameters (one lazily initialized)."""

    def __init__(self, n_out):
        super().__init__()
        with self.init_scope():
            self.W = chainer.Parameter(chainer.initializers.Normal(0.1))
            self.s = chainer.Parameter(1.0, (1,))
        self.n_out = n_out

    def forward(self, x):
        if self.W.array is None:
            self.W.initialize((self.n_out, x.shape[1]))
        return F.linear(x, self.W) * F.broadcast_to(self.s, (x.shape[0], self.n_out))


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 16)
            self.l2 = ScaledLinear(3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def _toy_data(n=120):
    rng = numpy.random.RandomState(0)
    x = rng.randn(n, 4).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 0.5).astype(numpy.int32)
    return x, t


def test_mlp_manual_training_loop():
    x, t = _toy_data()
    model = MLP()
    optimizer = optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    losses = []
    for epoch in range(60):
        model.cleargrads()
        loss = F.softmax_cross_entropy(model(x), t)
        loss.backward()
        optimizer.update()
        losses.append(float(loss.array))
    assert losses[-1] < 0.5 * losses[0]
    accuracy = F.accuracy(model(x), t)
    assert float(accuracy.array) > 0.9


class Square(chainer.FunctionNode):
    """A user FunctionNode, differentiable twice."""

    def forward(self, inputs):
        x, = inputs
        self.retain_inputs((0,))
        xp = get_array_module(x)
        return xp.square(x),

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 2 * x * grad_outputs[0],


class OldCube(chainer.Function):
    """A Chainer v1-style Function on arrays."""

    def forward(self, inputs):
        return inputs[0] ** 3,

    def backward(self, inputs, grad_outputs):
        return 3 * inputs[0] ** 2 * grad_outputs[0],


def test_custom_function_node_and_old_style_function():
    x = chainer.Variable(numpy.array([1.0, -2.0, 3.0], numpy.float32))
    y = F.sum(Square().apply((x,))[0] + OldCube()(x))
    y.backward()
    numpy.testing.assert_allclose(x.grad, 2 * x.array + 3 * x.array ** 2, rtol=1e-6)
    chainer.gradient_check.check_backward(lambda v: Square().apply((v,))[0],
                                          numpy.array([0.5, 1.5]), numpy.array([1.0, -1.0]))


def test_get_array_module_on_variables_and_arrays():
    x = chainer.Variable(numpy.zeros(2, numpy.float32))
    assert get_array_module(x) is numpy
    assert chainer.backend.get_array_module(x.array) is numpy


def test_variable_length_lstm_loop():
    """Sequences sorted by decreasing length, the batch shrinking over time, as in Chainer's LSTM."""
    rng = numpy.random.RandomState(1)
    lengths = [5, 3, 2]
    seqs = [rng.randn(n, 4).astype(numpy.float32) for n in lengths]
    lstm = L.LSTM(4, 6)
    out = L.Linear(6, 1)
    lstm.reset_state()
    loss = 0
    for step in range(max(lengths)):
        batch = numpy.stack([s[step] for s in seqs if len(s) > step])
        h = lstm(batch)
        loss += F.sum(out(h))
    loss.backward()
    assert lstm.upward.W.grad is not None and numpy.isfinite(lstm.upward.W.grad).all()
    # the last step ran one sequence; the state keeps the finished rows below it, as in Chainer
    assert h.shape == (1, 6)
    assert lstm.h.shape == (3, 6)


def test_double_backprop_gradient_penalty():
    """WGAN-GP style: the penalty on the input gradient's norm trains the critic's weights."""
    critic = L.Linear(3, 1)
    x = chainer.Variable(numpy.random.RandomState(2).randn(4, 3).astype(numpy.float32))
    y = critic(x)
    gx, = chainer.grad([y], [x], grad_outputs=[numpy.ones_like(y.array)], enable_double_backprop=True)
    penalty = F.mean((F.sqrt(F.sum(gx * gx, axis=1)) - 1) ** 2)
    critic.cleargrads()
    penalty.backward()
    # gx = W broadcast over the batch; penalty = (|W| - 1)^2, d/dW = 2 (|W| - 1) W / |W|
    w = critic.W.array
    norm = numpy.sqrt((w * w).sum())
    numpy.testing.assert_allclose(critic.W.grad, 2 * (norm - 1) * w / norm, rtol=1e-4)
