"""An agent given observations that its network was not built for: the error at act names what the
network's first layer takes and what the observations are (issue 33, "Bad input")."""
import re

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import model_zoo, optimizers
from kusari.model_zoo.agents import make_agent
from kusari.rl import explorers, q_functions
from kusari.rl.agents import DQN, REINFORCE, ResidualDQN, SARSA
from kusari.rl.agents._common import check_first_layer
from kusari.rl.replay_buffers import ReplayBuffer

gymnasium = pytest.importorskip("gymnasium")


def test_zoo_cartpole_dqn_on_acrobot():
    agent = model_zoo.load("dqn-cartpole")
    acrobot, _ = gymnasium.make("Acrobot-v1").reset(seed=0)
    with agent.eval_mode():
        with pytest.raises(ValueError, match=r"DQN\.batch_act: observations of shape \(6,\) after phi "
                                             r"\(6 values\) do not fit the model: its first layer "
                                             r"\S+ \(Linear\) takes 4 values per observation; was the "
                                             r"agent built for another environment\?") as info:
            agent.act(acrobot)
        assert "linear" in str(info.value.__cause__)  # the layer's own message stays as the cause
        # nothing was recorded: the environment it was built for still works
        cartpole, _ = gymnasium.make("CartPole-v1").reset(seed=0)
        assert agent.act(cartpole) in (0, 1)


@pytest.mark.parametrize("kind, env_id, obs_size", [
    ("dqn", "CartPole-v1", 4), ("ppo", "CartPole-v1", 4), ("a2c", "CartPole-v1", 4),
    ("a3c", "CartPole-v1", 4), ("td3", "Pendulum-v1", 3), ("sac", "Pendulum-v1", 3),
    ("ddpg", "Pendulum-v1", 3),
])
@pytest.mark.parametrize("training", [True, False])
def test_every_agent_kind_names_the_first_layer(kind, env_id, obs_size, training):
    agent = make_agent(kind, env_id)
    obs = numpy.zeros(obs_size + 2, numpy.float32)
    with pytest.raises(ValueError, match=rf"observations of shape \({obs_size + 2},\) after phi "
                                         rf"\({obs_size + 2} values\) do not fit the model: its first "
                                         rf"layer \S+ \(Linear\) takes {obs_size} values per observation"):
        if training:
            agent.act(obs)
        else:
            with agent.eval_mode():
                agent.act(obs)


@pytest.mark.parametrize("cls", [SARSA, ResidualDQN])
def test_dqn_variants(cls):
    q = q_functions.FCStateQFunctionWithDiscreteAction(4, 2, 8, 1)
    agent = cls(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                replay_start_size=1, minibatch_size=1)
    with pytest.raises(ValueError, match=rf"{cls.__name__}\.batch_act: observations of shape \(2, 3\) "
                                         r"after phi \(6 values\) .* takes 4 values per observation"):
        agent.act(numpy.zeros((2, 3), numpy.float32))


class ConvQ(kusari.Chain):
    """A CNN Q-function over (2, 5, 5) images."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(2, 4, 3)
            self.out = L.Linear(4 * 3 * 3, 3)

    def forward(self, x):
        return q_functions.DiscreteActionValueHead()(self.out(F.relu(self.conv(x))))


@pytest.mark.parametrize("shape", [(5, 5), (3, 5, 5)])
def test_image_without_or_with_other_channels(shape):
    q = ConvQ()
    agent = DQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                replay_start_size=1, minibatch_size=1)
    with pytest.raises(ValueError, match=re.escape(f"observations of shape {shape} after phi do not fit the "
                                                   "model: its first layer /conv (Convolution2D) takes "
                                                   "observations of shape (2, H, W) (channels first)")):
        agent.act(numpy.zeros(shape, numpy.float32))
    assert agent.act(numpy.zeros((2, 5, 5), numpy.float32)) in (0, 1, 2)


def test_a_fitting_observation_keeps_the_models_own_error():
    # the first layer takes the observation; a broken later layer is the network's fault, said as is
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(
        kusari.Sequential(L.Linear(4, 8), F.relu, L.Linear(5, 2)))
    agent = DQN(q, optimizers.SGD().setup(q), ReplayBuffer(10), 0.9, explorers.Greedy(),
                replay_start_size=1, minibatch_size=1)
    with pytest.raises(ValueError, match=r"^linear: "):
        agent.act(numpy.zeros(4, numpy.float32))


def test_lazy_first_layer_says_nothing():
    check_first_layer("X", kusari.Sequential(L.Linear(None, 3)), numpy.zeros((1, 7)))
    check_first_layer("X", kusari.Sequential(F.relu), numpy.zeros((1, 7)))
    with pytest.raises(ValueError, match="X: observations of shape"):
        check_first_layer("X", kusari.Sequential(L.Linear(6, 3)), numpy.zeros((1, 7)))


def test_reinforce():
    model = kusari.Sequential(L.Linear(4, 2), kusari.rl.policies.SoftmaxCategoricalHead())
    agent = REINFORCE(model, optimizers.Adam().setup(model))
    with pytest.raises(ValueError, match=r"REINFORCE\.act: observations of shape \(3,\) after phi "
                                         r"\(3 values\) do not fit the model: its first layer /0 "):
        agent.act(numpy.zeros(3, numpy.float32))
