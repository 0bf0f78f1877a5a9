"""State-input Q-functions: ``q(obs)`` returns an ActionValue over all actions."""
import itertools
from collections.abc import Callable

import kusari
import kusari.functions as F
import numpy
from kusari.rl.action_value import (
    DiscreteActionValue,
    DistributionalDiscreteActionValue,
    QuadraticActionValue,
    QuantileDiscreteActionValue,
)
from kusari.rl.nn.bound_by_tanh import bound_by_tanh
from kusari.rl.nn.mlp import MLP


class DiscreteActionValueHead(kusari.Link):
    """Last layer of a discrete Q-network: wraps (batch_size, n_actions) Q-values in an ActionValue."""

    def forward(self, q_values) -> DiscreteActionValue:
        """``DiscreteActionValue(q_values)`` for q_values of shape (batch_size, n_actions)."""
        return DiscreteActionValue(q_values)


class SingleModelStateQFunctionWithDiscreteAction(kusari.Chain):
    """Q-function ``DiscreteActionValue(model(x))``.

    Parameters
    ----------
    model : Link mapping (batch_size, ...) observations to (batch_size, n_actions) Q-values
    """

    def __init__(self, model: kusari.Link):
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, x) -> DiscreteActionValue:
        """Action values of the observations ``x``."""
        return DiscreteActionValue(self.model(x))


class FCStateQFunctionWithDiscreteAction(SingleModelStateQFunctionWithDiscreteAction):
    """Fully-connected Q-function over discrete actions (an ``MLP`` in ``model``).

    Parameters
    ----------
    ndim_obs : int, size of a flat observation
    n_actions : int
    n_hidden_channels : int, width of each hidden layer
    n_hidden_layers : int
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, ndim_obs: int, n_actions: int, n_hidden_channels: int,
                 n_hidden_layers: int, nonlinearity: Callable = F.relu,
                 last_wscale: float = 1.0):
        super().__init__(MLP(ndim_obs, n_actions, [n_hidden_channels] * n_hidden_layers,
                             nonlinearity=nonlinearity, last_wscale=last_wscale))


class DistributionalSingleModelStateQFunctionWithDiscreteAction(kusari.Chain):
    """Distributional Q-function ``DistributionalDiscreteActionValue(model(x), z_values)``.

    Parameters
    ----------
    model : Link mapping observations to atom probabilities (batch_size, n_actions, n_atoms)
    z_values : float array of shape (n_atoms,), the returns of the atoms (a persistent value)
    """

    def __init__(self, model: kusari.Link, z_values):
        super().__init__()
        with self.init_scope():
            self.model = model
        self.add_persistent("z_values", z_values)

    def forward(self, x) -> DistributionalDiscreteActionValue:
        """Return distributions of the observations ``x``."""
        return DistributionalDiscreteActionValue(self.model(x), self.z_values)


def atoms(who: str, n_atoms: int, v_min: float, v_max: float):
    """``n_atoms`` evenly spaced float32 returns from ``v_min`` to ``v_max``."""
    if n_atoms < 2 or not v_min < v_max:
        raise ValueError(f"{who}: need n_atoms >= 2 and v_min < v_max, got n_atoms={n_atoms}, "
                         f"v_min={v_min}, v_max={v_max}")
    return numpy.linspace(v_min, v_max, num=n_atoms, dtype=numpy.float32)


class DistributionalFCStateQFunctionWithDiscreteAction(
        DistributionalSingleModelStateQFunctionWithDiscreteAction):
    """Fully-connected C51 Q-function: an MLP, reshaped to atoms and softmaxed over them.

    Parameters
    ----------
    ndim_obs : int
    n_actions : int
    n_atoms : int, at least 2
    v_min, v_max : float, the range of the atoms' returns
    n_hidden_channels, n_hidden_layers : int
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, ndim_obs: int, n_actions: int, n_atoms: int, v_min: float, v_max: float,
                 n_hidden_channels: int, n_hidden_layers: int, nonlinearity: Callable = F.relu,
                 last_wscale: float = 1.0):
        z_values = atoms(type(self).__name__, n_atoms, v_min, v_max)
        model = kusari.Sequential(
            MLP(ndim_obs, n_actions * n_atoms, [n_hidden_channels] * n_hidden_layers,
                nonlinearity=nonlinearity, last_wscale=last_wscale),
            lambda h: F.softmax(F.reshape(h, (-1, n_actions, n_atoms)), axis=2))
        super().__init__(model, z_values)


class QuantileSingleModelStateQFunctionWithDiscreteAction(kusari.Chain):
    """Quantile Q-function (QR-DQN) ``QuantileDiscreteActionValue(model(x))``.

    Parameters
    ----------
    model : Link mapping observations to quantiles of shape (batch_size, n_quantiles, n_actions)
    """

    def __init__(self, model: kusari.Link):
        super().__init__()
        with self.init_scope():
            self.model = model

    def forward(self, x) -> QuantileDiscreteActionValue:
        """Return quantiles of the observations ``x``."""
        return QuantileDiscreteActionValue(self.model(x))


class QuantileFCStateQFunctionWithDiscreteAction(QuantileSingleModelStateQFunctionWithDiscreteAction):
    """Fully-connected QR-DQN Q-function: an MLP reshaped to (batch_size, n_quantiles, n_actions).

    Parameters
    ----------
    ndim_obs : int
    n_actions : int
    n_quantiles : int, at least 1; QR-DQN's quantile levels are ``(2 i + 1) / (2 n_quantiles)``
    n_hidden_channels, n_hidden_layers : int
    nonlinearity : callable applied after each hidden layer
    last_wscale : float, scale of the output layer's initial weights
    """

    def __init__(self, ndim_obs: int, n_actions: int, n_quantiles: int, n_hidden_channels: int,
                 n_hidden_layers: int, nonlinearity: Callable = F.relu, last_wscale: float = 1.0):
        if n_quantiles < 1:
            raise ValueError(f"{type(self).__name__}: n_quantiles must be >= 1, got {n_quantiles}")
        model = kusari.Sequential(
            MLP(ndim_obs, n_quantiles * n_actions, [n_hidden_channels] * n_hidden_layers,
                nonlinearity=nonlinearity, last_wscale=last_wscale),
            lambda h: F.reshape(h, (-1, n_quantiles, n_actions)))
        super().__init__(model)


def lower_triangular_matrix(diag, non_diag) -> kusari.Variable:
    """Batch of lower-triangular matrices from their diagonals and strictly-lower entries.

    Parameters
    ----------
    diag : float Variable of shape (B, n)
    non_diag : float Variable of shape (B, n (n - 1) / 2), row-major order of ``tril_indices(n, -1)``

    Returns
    -------
    Variable of shape (B, n, n), differentiable w.r.t. both inputs.
    """
    b, n = diag.shape
    n_lower = n * (n - 1) // 2
    if non_diag.shape != (b, n_lower):
        raise ValueError(f"lower_triangular_matrix: non_diag must have shape {(b, n_lower)} "
                         f"for diag.shape={diag.shape}, got {non_diag.shape}")
    # Gather every matrix entry from [diag, non_diag, 0]; the zero column fills the upper part.
    source = numpy.full((n, n), n + n_lower)
    source[numpy.diag_indices(n)] = numpy.arange(n)
    source[numpy.tril_indices(n, -1)] = n + numpy.arange(n_lower)
    zero = kusari.Variable(diag.xp.zeros((b, 1), dtype=diag.dtype), requires_grad=False)
    entries = F.concat((diag, non_diag, zero), axis=1)
    return F.reshape(entries[:, diag.xp.asarray(source.ravel())], (b, n, n))


class FCQuadraticStateQFunction(kusari.Chain):
    """NAF's Q-function (https://arxiv.org/abs/1603.00748): a QuadraticActionValue per state.

    ``P(s) = L L^T`` with ``L`` lower triangular with a positive (exp) diagonal.

    Parameters
    ----------
    n_input_channels : int, size of a flat observation
    n_dim_action : int
    n_hidden_channels, n_hidden_layers : int; n_hidden_layers >= 1
    action_space : object with ``low`` and ``high`` arrays (a gymnasium Box)
    scale_mu : bool, squash ``mu`` into the box with tanh
    """

    def __init__(self, n_input_channels: int, n_dim_action: int, n_hidden_channels: int,
                 n_hidden_layers: int, action_space, scale_mu: bool = True):
        super().__init__()
        if n_hidden_layers < 1 or action_space is None:
            raise ValueError(f"FCQuadraticStateQFunction: need n_hidden_layers >= 1 and an "
                             f"action_space, got n_hidden_layers={n_hidden_layers}, "
                             f"action_space={action_space!r}")
        self.n_dim_action = n_dim_action
        self.action_space = action_space
        self.scale_mu = scale_mu
        n_lower = n_dim_action * (n_dim_action - 1) // 2
        sizes = [n_input_channels] + [n_hidden_channels] * n_hidden_layers
        with self.init_scope():
            self.hidden_layers = kusari.ChainList(
                *(kusari.links.Linear(i, o) for i, o in itertools.pairwise(sizes)))
            self.v = kusari.links.Linear(n_hidden_channels, 1)
            self.mu = kusari.links.Linear(n_hidden_channels, n_dim_action)
            self.mat_diag = kusari.links.Linear(n_hidden_channels, n_dim_action)
            if n_lower:
                self.mat_non_diag = kusari.links.Linear(n_hidden_channels, n_lower)

    def forward(self, state) -> QuadraticActionValue:
        """Quadratic action values of ``state`` (batch_size, n_input_channels)."""
        h = state
        for layer in self.hidden_layers:
            h = F.relu(layer(h))
        mu = self.mu(h)
        if self.scale_mu:
            mu = bound_by_tanh(mu, self.action_space.low, self.action_space.high)
        diag = F.exp(self.mat_diag(h))
        if self.n_dim_action > 1:
            tril = lower_triangular_matrix(diag, self.mat_non_diag(h))
            mat = F.matmul(tril, F.transpose(tril, (0, 2, 1)))
        else:
            mat = F.expand_dims(diag ** 2, 2)
        return QuadraticActionValue(mu, mat, self.v(h), min_action=self.action_space.low,
                                    max_action=self.action_space.high)
