"""kusari.rl.agents.categorical_dqn: the projection and one update against NumPy, a known MDP learnt, bad input."""
import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN, CategoricalDQN, categorical_projection
from kusari.rl.replay_buffers import PrioritizedReplayBuffer, ReplayBuffer
from rl_discrete_chain import Q_STAR, train_on_chain
from rl_discrete_chain import UPDATE_A, UPDATE_S, UPDATE_S_NEXT, UPDATE_WEIGHTS, three_experience_update, update_returns

N_ATOMS, N_ACTIONS, OBS = 5, 2, 3
Z = numpy.linspace(-2, 2, N_ATOMS, dtype=numpy.float32)


def projection_reference(values, probs, z):
    """Algorithm 1 of the C51 paper, atom by atom, in float64."""
    out = numpy.zeros(values.shape)
    delta = z[1] - z[0]
    for i in range(values.shape[0]):
        for j in range(values.shape[1]):
            b = (min(max(values[i, j], z[0]), z[-1]) - z[0]) / delta
            lo, hi = int(numpy.floor(b)), int(numpy.ceil(b))
            if lo == hi:
                out[i, lo] += probs[i, j]
            else:
                out[i, lo] += probs[i, j] * (hi - b)
                out[i, hi] += probs[i, j] * (b - lo)
    return out


def test_projection_matches_the_papers_algorithm():
    rng = numpy.random.RandomState(0)
    values = rng.uniform(-3, 3, (6, N_ATOMS)).astype(numpy.float32)
    values[0] = Z          # on the atoms: each keeps its own probability
    values[1, :2] = [-5, 7]  # outside the support: to the end atoms
    probs = rng.dirichlet(numpy.ones(N_ATOMS), 6).astype(numpy.float32)
    projected = categorical_projection(values, probs, Z)
    assert projected.dtype == numpy.float32
    numpy.testing.assert_allclose(projected, projection_reference(values, probs, Z), rtol=1e-5, atol=1e-7)
    numpy.testing.assert_allclose(projected[0], probs[0], rtol=1e-6)
    numpy.testing.assert_allclose(projected.sum(axis=1), 1, rtol=1e-5)


def test_projection_refuses_mismatched_shapes():
    with pytest.raises(ValueError, match=r"categorical_projection: .*\(B, 5\).*values.shape=\(2, 4\)"):
        categorical_projection(numpy.zeros((2, 4), numpy.float32), numpy.zeros((2, 4), numpy.float32), Z)


def linear_c51(w, b):
    """q(x) = softmax over atoms of reshape(W x + b, (B, N_ACTIONS, N_ATOMS))."""
    model = kusari.Sequential(
        L.Linear(OBS, N_ACTIONS * N_ATOMS, initialW=w.copy(), initial_bias=b.copy()),
        lambda h: F.softmax(F.reshape(h, (-1, N_ACTIONS, N_ATOMS)), axis=2))
    return q_functions.DistributionalSingleModelStateQFunctionWithDiscreteAction(model, Z.copy())


def softmax(h):
    e = numpy.exp(h - h.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def transition(s, a, r, s2, terminal=False):
    return dict(state=numpy.float32(s), action=a, reward=r, next_state=numpy.float32(s2),
                next_action=None, is_state_terminal=terminal)


@pytest.mark.parametrize("cls", [CategoricalDQN, CategoricalDoubleDQN])
@pytest.mark.parametrize("batch_accumulator", ["mean", "sum"])
@pytest.mark.parametrize("weighted", [False, True])
def test_update_matches_numpy(cls, batch_accumulator, weighted):
    rng = numpy.random.RandomState(1)
    w0 = rng.normal(0, 1, (N_ACTIONS * N_ATOMS, OBS)).astype(numpy.float32)
    b0 = rng.normal(0, 0.1, N_ACTIONS * N_ATOMS).astype(numpy.float32)
    w_target = rng.normal(0, 1, w0.shape).astype(numpy.float32)
    gamma, lr = 0.9, 0.1
    q = linear_c51(w0, b0)
    agent = cls(q, optimizers.SGD(lr=lr).setup(q), PrioritizedReplayBuffer(100) if weighted else ReplayBuffer(100),
                gamma, explorers.Greedy(), replay_start_size=3, minibatch_size=3,
                batch_accumulator=batch_accumulator)
    agent.target_model.model[0].W.array[...] = w_target
    weights = UPDATE_WEIGHTS
    errors, sent_to_buffer = three_experience_update(agent, weighted)
    s, a, s_next = UPDATE_S, UPDATE_A, UPDATE_S_NEXT
    rewards, keep = update_returns(gamma)
    p = softmax((s @ w0.T + b0).reshape(3, N_ACTIONS, N_ATOMS))
    p_next_target = softmax((s_next @ w_target.T + b0).reshape(3, N_ACTIONS, N_ATOMS))
    chooser = p_next_target if cls is CategoricalDQN else softmax((s_next @ w0.T + b0).reshape(3, N_ACTIONS, N_ATOMS))
    greedy = (chooser @ Z).argmax(axis=1)
    t = projection_reference(rewards[:, None] + keep[:, None] * Z, p_next_target[numpy.arange(3), greedy], Z)
    y = p[numpy.arange(3), a]
    ce = -(t * numpy.log(y)).sum(axis=1)
    wt = weights if weighted else numpy.ones(3)
    scale = 1 / 3 if batch_accumulator == "mean" else 1
    # d CE / d logits of the action taken = softmax - target (the target sums to 1)
    g_logits = numpy.zeros((3, N_ACTIONS, N_ATOMS))
    g_logits[numpy.arange(3), a] = (y - t) * (wt * scale)[:, None]
    g_logits = g_logits.reshape(3, -1)
    linear = agent.model.model[0]
    stats = dict(agent.get_statistics())
    numpy.testing.assert_allclose(stats["average_loss"], (ce * wt).sum() * scale, rtol=1e-5)
    numpy.testing.assert_allclose(stats["average_q"], (y @ Z).mean(), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(errors, ce, rtol=1e-5)
    numpy.testing.assert_allclose(linear.W.array, w0 - lr * g_logits.T @ s, rtol=1e-5, atol=1e-6)
    numpy.testing.assert_allclose(linear.b.array, b0 - lr * g_logits.sum(axis=0), rtol=1e-5, atol=1e-6)
    numpy.testing.assert_array_equal(agent.target_model.model[0].W.array, w_target)
    if weighted:
        numpy.testing.assert_allclose(sent_to_buffer, [ce], rtol=1e-5)


def test_q_function_must_be_distributional():
    q = q_functions.FCStateQFunctionWithDiscreteAction(OBS, N_ACTIONS, 4, 1)
    agent = CategoricalDQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                           replay_start_size=1, minibatch_size=1)
    with pytest.raises(TypeError, match="CategoricalDQN: the q_function must return a "
                                        "DistributionalDiscreteActionValue, got DiscreteActionValue"):
        agent.update([[transition([1, 0, 0], 0, 1.0, [0, 1, 0])]])


def test_observation_of_another_shape_is_refused_at_act():
    q = q_functions.DistributionalFCStateQFunctionWithDiscreteAction(OBS, N_ACTIONS, N_ATOMS, -2, 2, 4, 1)
    agent = CategoricalDQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                           replay_start_size=1, minibatch_size=1)
    agent.act(numpy.float32([1, 0, 0]))
    with pytest.raises(ValueError, match=r"CategoricalDQN.batch_act: observation of shape \(4,\)"):
        agent.act(numpy.float32([1, 0, 0, 0]))


@pytest.mark.parametrize("cls", [CategoricalDQN, CategoricalDoubleDQN])
def test_learns_the_optimal_q_values(cls):
    agent = train_on_chain(
        cls, lambda: q_functions.DistributionalFCStateQFunctionWithDiscreteAction(2, 2, 11, -0.5, 1.5, 16, 1),
        steps=800, lr=0.01)
    with agent.eval_mode():
        q_values = agent.model(numpy.eye(2, dtype=numpy.float32)).q_values.array
        numpy.testing.assert_array_equal(agent.batch_act(list(numpy.eye(2, dtype=numpy.float32))), [0, 0])
    numpy.testing.assert_allclose(q_values, Q_STAR, atol=0.05)
