"""What the DQN variants' tests share (importable as ``rl_discrete_chain``; see conftest.py): a
two-state MDP with known values and a seeded run of an agent on it; the ChainerRL fixtures' network
and agent set-up."""
import pathlib

import gymnasium
import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.replay_buffers import ReplayBuffer
from kusari.rl.utils import set_random_seed
from rl_continuous_control import run

GAMMA, EPSILON = 0.9, 0.5


class TwoStateChain(gymnasium.Env):
    """State 0: action 0 moves to state 1 (reward 0), action 1 ends with 0.5. State 1: action 0
    ends with 1, action 1 ends with 0. With gamma 0.9: Q*(0) = [0.9, 0.5], Q*(1) = [1, 0]."""

    observation_space = gymnasium.spaces.Box(0, 1, (2,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.state = 0
        return numpy.eye(2, dtype=numpy.float32)[0], {}

    def step(self, action):
        if self.state == 0 and action == 0:
            self.state = 1
            return numpy.eye(2, dtype=numpy.float32)[1], 0.0, False, False, {}
        reward = {(0, 1): 0.5, (1, 0): 1.0, (1, 1): 0.0}[(self.state, int(action))]
        return numpy.eye(2, dtype=numpy.float32)[self.state], reward, True, False, {}


Q_STAR = numpy.array([[0.9, 0.5], [1.0, 0.0]])


def train_on_chain(cls, make_q, steps, lr, **kwargs):
    """``cls`` with the Q-function ``make_q()`` trained for ``steps`` steps on
    :class:`TwoStateChain` with Adam(``lr``) and epsilon-greedy exploration (epsilon 0.5), seeded."""
    set_random_seed(0)
    env = TwoStateChain()
    env.action_space.seed(0)
    q = make_q()
    agent = cls(q, optimizers.Adam(lr).setup(q), ReplayBuffer(1000), GAMMA,
                explorers.ConstantEpsilonGreedy(EPSILON, env.action_space.sample), replay_start_size=16,
                minibatch_size=16, target_update_interval=10, **kwargs)
    run(agent, env, steps)
    return agent


def learn_chain(cls, steps=600, lr=0.05, **kwargs):
    """:func:`train_on_chain` with tabular Q (one-hot states into a bias-free Linear); returns the
    agent and its Q-values (2, 2)."""
    agent = train_on_chain(
        cls, lambda: q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True)),
        steps, lr, **kwargs)
    with agent.eval_mode():
        return agent, agent.model(numpy.eye(2, dtype=numpy.float32)).q_values.array


W = numpy.array([[1.0, 0.0], [0.0, 2.0]], numpy.float32)          # the model of linear_agent
W_TARGET = numpy.array([[3.0, 0.5], [0.0, -1.0]], numpy.float32)  # its target network
UPDATE_GAMMA, UPDATE_LR = 0.5, 0.1


def linear_agent(cls, **kwargs):
    """``cls`` on ``Q(s) = W s`` (a bias-free Linear 2 -> 2) with the target network ``W_TARGET``:
    SGD, greedy, minibatches of 2, squared loss (no Huber clipping)."""
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(
        L.Linear(2, 2, nobias=True, initialW=W.copy()))
    agent = cls(q, optimizers.SGD(lr=UPDATE_LR).setup(q), ReplayBuffer(1000), UPDATE_GAMMA,
                explorers.Greedy(), replay_start_size=2, minibatch_size=2, clip_delta=False, **kwargs)
    agent.target_model.model.W.array[...] = W_TARGET
    return agent


def assert_update_matches(agent, target) -> None:
    """One update of :func:`linear_agent`'s ``agent`` on two transitions (one terminal) moves W as
    SGD on the mean squared error to ``target(q, q_next, a, r, terminal)``, where ``q`` and
    ``q_next`` are the target network's values (2,) of s and s'."""
    states = numpy.float32([[1, 0], [0, 1]])
    next_states = numpy.float32([[1, 1], [1, 0]])
    actions, rewards, terminal = [1, 0], [1.0, -0.5], [False, True]
    agent.update([[{"state": s, "action": a, "reward": r, "next_state": s2, "next_action": None,
                    "is_state_terminal": d}]
                  for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal)])
    grad = numpy.zeros_like(W)
    for s, a, r, s2, d in zip(states, actions, rewards, next_states, terminal):
        t = target(W_TARGET @ s, W_TARGET @ s2, a, r, d)
        grad[a] += ((W @ s)[a] - t) * s / 2                        # mean over the batch of 2
    numpy.testing.assert_allclose(agent.model.model.W.array, W - UPDATE_LR * grad, rtol=1e-6)


CHAINERRL_FIXTURES = pathlib.Path(__file__).parents[1] / "fixtures" / "chainerrl"


class Net(kusari.Chain):
    """The ChainerRL fixtures' network, with Chainer's names: ``l1`` (3 -> 8), ReLU, ``l2`` (8 -> 2)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 8)
            self.l2 = L.Linear(8, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def load_chainerrl_fixture(name: str) -> dict:
    """``tests/rl/fixtures/chainerrl/<name>.npz`` (tools/make_chainerrl_fixture.py) as a dict."""
    path = CHAINERRL_FIXTURES / f"{name}.npz"
    if not path.is_file():
        pytest.skip(f"{path} is missing; write it with tools/make_chainerrl_fixture.py")
    with numpy.load(path) as f:
        return dict(f)


def load_named(link: kusari.Link, arrays: dict, prefix: str) -> None:
    """Set ``link``'s parameters from ``arrays[prefix + '/' + name]``; both sides name the same ones."""
    names = {name.lstrip("/") for name, _ in link.namedparams()}
    stored = {key[len(prefix) + 1:] for key in arrays if key.startswith(prefix + "/")}
    assert names == stored, (sorted(names), sorted(stored))
    for name, param in link.namedparams():
        param.array[...] = arrays[f"{prefix}/{name.lstrip('/')}"]


def chainerrl_replay(cls, fx: dict, explorer, t: int = 0, **kwargs):
    """``cls`` built as the fixture's ChainerRL agent (SGD lr 0.1, Huber, mean, at step ``t``) and
    updated on its minibatches; yields ``(agent, u, errors)`` after each update ``u``."""
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(Net())
    load_named(q, fx, "init")
    batch_size = 6
    agent = cls(q, optimizers.SGD(lr=0.1).setup(q), ReplayBuffer(100), float(fx["gamma"]), explorer,
                replay_start_size=batch_size, minibatch_size=batch_size, target_update_interval=100,
                clip_delta=True, batch_accumulator="mean", **kwargs)
    experiences, k = [], 0
    for n in fx["exp_len"]:
        experiences.append([{"state": fx["state"][k + i], "action": int(fx["action"][k + i]),
                             "reward": float(fx["reward"][k + i]), "next_state": fx["next_state"][k + i],
                             "next_action": None, "is_state_terminal": bool(fx["is_state_terminal"][k + i])}
                            for i in range(n)])
        k += n
    if "init_target/model/l1/W" in fx:
        load_named(agent.target_model, fx, "init_target")
    agent.t = t
    for u in range(len(fx["errors"])):
        errors = []
        agent.update(experiences[u * batch_size:(u + 1) * batch_size], errors_out=errors)
        yield agent, u, errors


def assert_matches_chainerrl(agent, fx: dict, u: int, errors: list) -> None:
    """The model's parameters and the TD errors against ChainerRL's after update ``u``."""
    for name, param in agent.model.namedparams():
        numpy.testing.assert_allclose(param.array, fx[f"after/{name.lstrip('/')}"][u], rtol=1e-5, atol=1e-6,
                                      err_msg=f"{name} after update {u}")
    numpy.testing.assert_allclose(errors, fx["errors"][u], rtol=1e-5, atol=1e-6, err_msg=f"errors of update {u}")


def transition(s, a, r, s2, terminal=False) -> dict:
    """One replay-buffer transition on 3-valued observations (float32)."""
    return dict(state=numpy.float32(s), action=a, reward=r, next_state=numpy.float32(s2),
                next_action=None, is_state_terminal=terminal)


# The minibatch of three_experience_update: a 1-step experience, a terminal one and a 2-step one.
UPDATE_WEIGHTS = numpy.array([0.5, 1.0, 0.25])
UPDATE_S = numpy.float64([[1, 0, 0.5], [0, 1, 1], [1, 1, -1]])
UPDATE_A = numpy.array([0, 1, 1])
UPDATE_S_NEXT = numpy.float64([[0, 1, -1], [1, 1, 0], [2, 1, 0]])


def update_returns(gamma: float) -> tuple:
    """The minibatch's n-step rewards and the discount left on its bootstrap values, (3,) each."""
    return numpy.array([1.0, -0.5, 0.5 + gamma * 0.25]), numpy.array([gamma, 0.0, gamma ** 2])


def three_experience_update(agent, weighted: bool) -> tuple:
    """``agent.update`` on the minibatch above (importance weights UPDATE_WEIGHTS when ``weighted``);
    returns the TD errors it reports and what it sent to the replay buffer's ``update_errors``."""
    experiences = [[transition([1, 0, 0.5], 0, 1.0, [0, 1, -1])],
                   [transition([0, 1, 1], 1, -0.5, [1, 1, 0], terminal=True)],
                   [transition([1, 1, -1], 1, 0.5, [1, 0, 1]), transition([1, 0, 1], 0, 0.25, [2, 1, 0])]]
    sent_to_buffer = []
    if weighted:
        for e, wt in zip(experiences, UPDATE_WEIGHTS):
            e[0]["weight"] = float(wt)
        for _ in range(3):
            agent.replay_buffer.append(**transition([0, 0, 0], 0, 0.0, [0, 0, 0], terminal=True))
        agent.replay_buffer.sample(3)  # update_errors needs a sampled batch of 3
        update_errors = agent.replay_buffer.update_errors
        agent.replay_buffer.update_errors = lambda e: (sent_to_buffer.append(e), update_errors(e))
    errors = []
    agent.update(experiences, errors_out=errors)
    return errors, sent_to_buffer
