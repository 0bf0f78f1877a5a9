"""Dueling Q-networks for Atari (http://arxiv.org/abs/1511.06581): Q = V + (A - mean A)."""
from collections.abc import Callable

import kusari
import kusari.functions as F
import kusari.links as L
from kusari.rl.action_value import (
    DiscreteActionValue,
    DistributionalDiscreteActionValue,
)
from kusari.rl.nn.atari_cnn import (
    NATURE_CONVS,
    NATURE_FLAT_SIZE,
    conv_layers,
    flat_conv_features,
)
from kusari.rl.nn.mlp import MLP
from kusari.rl.q_functions.state_q_functions import atoms


def _dueling(advantages, value):
    """``value + advantages - mean over actions (axis 1) of advantages``."""
    mean = F.mean(advantages, axis=1, keepdims=True)
    return F.broadcast_to(value, advantages.shape) + advantages - F.broadcast_to(
        mean, advantages.shape)


class DuelingDQN(kusari.Chain):
    """Dueling DQN on Nature DQN's convolutions; advantage and value streams are MLPs [512].

    Parameters
    ----------
    n_actions : int
    n_input_channels : int, stacked 84x84 frames
    activation : callable
    bias : float, initial bias of the convolutions
    """

    def __init__(self, n_actions: int, n_input_channels: int = 4,
                 activation: Callable = F.relu, bias: float = 0.1):
        super().__init__()
        self.n_actions = n_actions
        self.n_input_channels = n_input_channels
        self.activation = activation
        with self.init_scope():
            self.conv_layers = conv_layers(n_input_channels, NATURE_CONVS, bias)
            self.a_stream = MLP(NATURE_FLAT_SIZE, n_actions, [512])
            self.v_stream = MLP(NATURE_FLAT_SIZE, 1, [512])

    def forward(self, x) -> DiscreteActionValue:
        """Action values of frames ``x`` (batch_size, n_input_channels, 84, 84)."""
        h = flat_conv_features(type(self).__name__, self.conv_layers, self.activation, x)
        return DiscreteActionValue(_dueling(self.a_stream(h), self.v_stream(h)))


class DistributionalDuelingDQN(kusari.Chain):
    """Dueling C51 network: a shared 1024-unit layer split in halves for advantage and value.

    Parameters
    ----------
    n_actions, n_atoms : int
    v_min, v_max : float, the range of the atoms' returns
    n_input_channels : int
    activation : callable
    bias : float, initial bias of the convolutions
    """

    def __init__(self, n_actions: int, n_atoms: int, v_min: float, v_max: float,
                 n_input_channels: int = 4, activation: Callable = F.relu, bias: float = 0.1):
        super().__init__()
        self.n_actions = n_actions
        self.n_atoms = n_atoms
        self.n_input_channels = n_input_channels
        self.activation = activation
        self.add_persistent("z_values", atoms(type(self).__name__, n_atoms, v_min, v_max))
        with self.init_scope():
            self.conv_layers = conv_layers(n_input_channels, NATURE_CONVS, bias)
            self.main_stream = L.Linear(NATURE_FLAT_SIZE, 1024)
            self.a_stream = L.Linear(512, n_actions * n_atoms)
            self.v_stream = L.Linear(512, n_atoms)

    def forward(self, x) -> DistributionalDiscreteActionValue:
        """Return distributions of frames ``x`` (batch_size, n_input_channels, 84, 84)."""
        h = flat_conv_features(type(self).__name__, self.conv_layers, self.activation, x)
        h_a, h_v = F.split_axis(self.activation(self.main_stream(h)), 2, axis=1)
        b = h.shape[0]
        ya = F.reshape(self.a_stream(h_a), (b, self.n_actions, self.n_atoms))
        ys = F.reshape(self.v_stream(h_v), (b, 1, self.n_atoms))
        return DistributionalDiscreteActionValue(F.softmax(_dueling(ya, ys), axis=2),
                                                 self.z_values)
