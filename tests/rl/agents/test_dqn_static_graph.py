"""DQN replays its update through static_graph only where that equals eager training."""
import warnings

import kusari
import kusari.links as L
import numpy
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.action_value import DiscreteActionValue
from kusari._static_replay import Schedule
from kusari.rl.agents import dqn
from kusari.rl.agents.dqn import DQN
from kusari.rl.nn import EmpiricalNormalization
from kusari.rl.replay_buffers import ReplayBuffer
from kusari.rl.utils import set_random_seed


class StandardizingQ(kusari.Chain):
    """Standardizes observations with statistics it keeps itself, and counts its forwards."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.normalize = EmpiricalNormalization(3)
            self.head = L.Linear(3, 2, initialW=numpy.full((2, 3), 0.3, numpy.float32))
        self.n_forward = 0
        self.n_seen = 0

    def forward(self, x):
        self.n_forward += 1
        self.n_seen += len(x)
        return DiscreteActionValue(self.head(self.normalize(x)))


def _train(q_function, static: bool, steps: int = 200):
    set_random_seed(3)
    agent = DQN(q_function, optimizers.Adam(1e-2).setup(q_function), ReplayBuffer(1000), 0.9,
                explorers.ConstantEpsilonGreedy(0.3, lambda: numpy.random.randint(2)),
                replay_start_size=16, minibatch_size=8, target_update_interval=10)
    rng = numpy.random.default_rng(0)
    with kusari.using_config("use_static_graph", static), warnings.catch_warnings():
        warnings.simplefilter("error")   # falling back is silent
        for i in range(steps):
            obs = rng.normal(2.0, 3.0, 3).astype(numpy.float32)
            agent.act(obs)
            agent.observe(obs, float(obs[0] > 2.0), i % 20 == 19, False)
    return agent


def test_python_side_statistics_train_exactly_as_eagerly():
    static, eager = _train(StandardizingQ(), True), _train(StandardizingQ(), False)
    assert static.model.n_forward == eager.model.n_forward
    assert static.model.n_seen == eager.model.n_seen
    assert float(static.model.normalize.count) == float(eager.model.normalize.count)
    for (name, p), (_, q) in zip(sorted(static.model.namedparams()), sorted(eager.model.namedparams())):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
    numpy.testing.assert_array_equal(static.model.normalize.mean, eager.model.normalize.mean)
    assert static.get_statistics() == eager.get_statistics()


def test_an_ordinary_q_function_is_still_replayed():
    agent = _train(q_functions.FCStateQFunctionWithDiscreteAction(3, 2, 8, 1), True, steps=60)
    schedules = dqn._loss_and_gradients._owned[agent.model]
    assert len(schedules) == 1
    assert all(isinstance(s, Schedule) for s in schedules.values())


def test_a_standardizing_q_function_falls_back():
    agent = _train(StandardizingQ(), True, steps=60)
    schedules = dqn._loss_and_gradients._owned[agent.model]
    assert len(schedules) == 1
    assert not any(isinstance(s, Schedule) for s in schedules.values())
