"""State-action Q-functions: ``q((obs, action))`` returns Q-values of shape (batch_size, 1).

PFRL's agents call a critic with one ``(obs, action)`` tuple; ``q(obs, action)`` works too.
"""
from collections.abc import Callable

import kusari
import kusari.functions as F
from kusari.rl.nn.concat_obs_and_action import concat_obs_and_action
from kusari.rl.nn.mlp import MLP
from kusari.rl.nn.mlp_bn import MLPBN


def obs_and_action(who: str, args: tuple) -> tuple:
    """``(obs, action)`` from either one 2-tuple argument or two arguments."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    if len(args) != 2:
        raise TypeError(f"{who}: call with one (obs, action) tuple or with obs and action, got "
                        f"{len(args)} inputs")
    return args


def _n_hidden_layers_at_least_one(who: str, n_hidden_layers: int):
    if n_hidden_layers < 1:
        raise ValueError(f"{who}: n_hidden_layers must be >= 1 (the action joins after the "
                         f"first layer), got {n_hidden_layers}")


class SingleModelStateActionQFunction(kusari.Chain):
    """Q-function ``model(obs, action)``.

    Parameters
    ----------
    model : Link taking (obs, action) and returning (batch_size, 1) Q-values
    """

    def __init__(self, model: kusari.Link):
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, *args) -> kusari.Variable:
        """Q-values for ``(obs, action)``."""
        obs, action = obs_and_action(type(self).__name__, args)
        return self.model(obs, action)


class FCSAQFunction(MLP):
    """Fully-connected Q-function of the concatenated observation and action.

    Parameters
    ----------
    n_dim_obs, n_dim_action : int
    n_hidden_channels, n_hidden_layers : int
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, n_dim_obs: int, n_dim_action: int, n_hidden_channels: int,
                 n_hidden_layers: int, nonlinearity: Callable = F.relu,
                 last_wscale: float = 1.0):
        super().__init__(n_dim_obs + n_dim_action, 1, [n_hidden_channels] * n_hidden_layers,
                         nonlinearity=nonlinearity, last_wscale=last_wscale)

    def forward(self, *args) -> kusari.Variable:
        """Q-values (batch_size, 1) for obs (batch_size, n_dim_obs), action (batch_size, n_dim_action)."""
        return super().forward(concat_obs_and_action(obs_and_action(type(self).__name__, args)))


class FCBNSAQFunction(MLPBN):
    """``FCSAQFunction`` with batch normalization (``MLPBN``).

    Parameters
    ----------
    n_dim_obs, n_dim_action : int
    n_hidden_channels, n_hidden_layers : int
    normalize_input : bool, batch-normalize the concatenated input
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, n_dim_obs: int, n_dim_action: int, n_hidden_channels: int,
                 n_hidden_layers: int, normalize_input: bool = True,
                 nonlinearity: Callable = F.relu, last_wscale: float = 1.0):
        super().__init__(n_dim_obs + n_dim_action, 1, [n_hidden_channels] * n_hidden_layers,
                         normalize_input=normalize_input, nonlinearity=nonlinearity,
                         last_wscale=last_wscale)

    def forward(self, *args) -> kusari.Variable:
        """Q-values (batch_size, 1) for ``(obs, action)``."""
        return super().forward(concat_obs_and_action(obs_and_action(type(self).__name__, args)))


class _LateAction(kusari.Chain):
    """``mlp([nonlinearity(obs_mlp(obs)), action])``: the action enters after the first layer."""

    def __init__(self, obs_mlp: kusari.Link, mlp: kusari.Link, nonlinearity: Callable):
        super().__init__()
        self.nonlinearity = nonlinearity
        with self.init_scope():
            self.obs_mlp = obs_mlp
            self.mlp = mlp

    def forward(self, *args) -> kusari.Variable:
        """Q-values (batch_size, 1) for ``(obs, action)``."""
        obs, action = obs_and_action(type(self).__name__, args)
        h = self.nonlinearity(self.obs_mlp(obs))
        return self.mlp(concat_obs_and_action((h, action)))


class FCLateActionSAQFunction(_LateAction):
    """Fully-connected Q-function with the action joining at the second layer (DDPG paper).

    Parameters
    ----------
    n_dim_obs, n_dim_action : int
    n_hidden_channels : int
    n_hidden_layers : int, at least 1
    nonlinearity : callable
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, n_dim_obs: int, n_dim_action: int, n_hidden_channels: int,
                 n_hidden_layers: int, nonlinearity: Callable = F.relu,
                 last_wscale: float = 1.0):
        _n_hidden_layers_at_least_one(type(self).__name__, n_hidden_layers)
        super().__init__(
            MLP(n_dim_obs, n_hidden_channels, []),
            MLP(n_hidden_channels + n_dim_action, 1,
                [n_hidden_channels] * (n_hidden_layers - 1), nonlinearity=nonlinearity,
                last_wscale=last_wscale),
            nonlinearity)


class FCBNLateActionSAQFunction(_LateAction):
    """``FCLateActionSAQFunction`` whose first layer is batch-normalized (DDPG paper).

    Parameters
    ----------
    n_dim_obs, n_dim_action : int
    n_hidden_channels : int
    n_hidden_layers : int, at least 1
    normalize_input : bool, batch-normalize the observation
    nonlinearity : callable
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, n_dim_obs: int, n_dim_action: int, n_hidden_channels: int,
                 n_hidden_layers: int, normalize_input: bool = True,
                 nonlinearity: Callable = F.relu, last_wscale: float = 1.0):
        _n_hidden_layers_at_least_one(type(self).__name__, n_hidden_layers)
        super().__init__(
            MLPBN(n_dim_obs, n_hidden_channels, [], normalize_input=normalize_input,
                  normalize_output=True),
            MLP(n_hidden_channels + n_dim_action, 1,
                [n_hidden_channels] * (n_hidden_layers - 1), nonlinearity=nonlinearity,
                last_wscale=last_wscale),
            nonlinearity)
