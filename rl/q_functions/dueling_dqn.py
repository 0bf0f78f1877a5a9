"""Dueling Q-networks (http://arxiv.org/abs/1511.06581): Q = V + (A - mean A), on Atari frames or flat observations."""
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
    """``(advantages - mean over actions (axis 1) of advantages) + value``, in PFRL's order."""
    mean = F.mean(advantages, axis=1, keepdims=True)
    return (advantages - F.broadcast_to(mean, advantages.shape)) + F.broadcast_to(
        value, advantages.shape)


def _dueling_distributions(link, h) -> DistributionalDiscreteActionValue:
    """The distributional dueling head of ``link`` on features ``h`` (B, features).

    ``link.main_stream``'s activated output is split in halves: the first feeds the advantages
    ``a_stream`` (n_actions x n_atoms logits), the second the value ``v_stream`` (n_atoms logits);
    each action's logits are combined as in :func:`_dueling` and softmaxed over the atoms.
    """
    h_a, h_v = F.split_axis(link.activation(link.main_stream(h)), 2, axis=1)
    b = h.shape[0]
    ya = F.reshape(link.a_stream(h_a), (b, link.n_actions, link.n_atoms))
    ys = F.reshape(link.v_stream(h_v), (b, 1, link.n_atoms))
    return DistributionalDiscreteActionValue(F.softmax(_dueling(ya, ys), axis=2), link.z_values)


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
        return _dueling_distributions(self, h)


class DistributionalDuelingFCStateQFunctionWithDiscreteAction(kusari.Chain):
    """DistributionalDuelingDQN's head on flat observations (no PFRL counterpart; for Rainbow on
    classic control): ``n_hidden_layers`` hidden layers, then a ``2 * n_hidden_channels`` main
    stream split in halves for the advantage and value streams.

    Parameters
    ----------
    ndim_obs, n_actions, n_atoms : int
    v_min, v_max : float, the range of the atoms' returns
    n_hidden_channels : int, width of the hidden layers and of each half of the main stream
    n_hidden_layers : int, hidden layers before the main stream (0: it reads the observation)
    activation : callable, after each hidden layer and the main stream

    Parameters are ``/hidden_layers/<i>/{W,b}`` (when ``n_hidden_layers`` > 0), ``/main_stream``,
    ``/a_stream`` and ``/v_stream`` (Linears with Chainer's default initialization); its Linears
    become noisy with :func:`kusari.rl.nn.to_factorized_noisy`.
    """

    def __init__(self, ndim_obs: int, n_actions: int, n_atoms: int, v_min: float, v_max: float,
                 n_hidden_channels: int, n_hidden_layers: int, activation: Callable = F.relu):
        super().__init__()
        name = type(self).__name__
        for arg, value, low in (("ndim_obs", ndim_obs, 1), ("n_actions", n_actions, 1),
                                ("n_hidden_channels", n_hidden_channels, 1),
                                ("n_hidden_layers", n_hidden_layers, 0)):
            if not isinstance(value, int) or value < low:
                raise ValueError(f"{name}: {arg} must be an int >= {low}, got {value!r}")
        self.ndim_obs = ndim_obs
        self.n_actions = n_actions
        self.n_atoms = n_atoms
        self.n_hidden_layers = n_hidden_layers
        self.activation = activation
        self.add_persistent("z_values", atoms(name, n_atoms, v_min, v_max))
        with self.init_scope():
            if n_hidden_layers:
                self.hidden_layers = kusari.ChainList(*(
                    L.Linear(ndim_obs if i == 0 else n_hidden_channels, n_hidden_channels)
                    for i in range(n_hidden_layers)))
            self.main_stream = L.Linear(n_hidden_channels if n_hidden_layers else ndim_obs,
                                        2 * n_hidden_channels)
            self.a_stream = L.Linear(n_hidden_channels, n_actions * n_atoms)
            self.v_stream = L.Linear(n_hidden_channels, n_atoms)

    def forward(self, x) -> DistributionalDiscreteActionValue:
        """Return distributions of observations ``x`` (batch_size, ndim_obs)."""
        if x.ndim != 2 or x.shape[1] != self.ndim_obs:
            raise ValueError(f"{type(self).__name__}: x must have shape (batch_size, {self.ndim_obs}), "
                             f"got {x.shape}")
        h = x
        for layer in self.hidden_layers if self.n_hidden_layers else ():
            h = self.activation(layer(h))
        return _dueling_distributions(self, h)
