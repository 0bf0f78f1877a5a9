"""Action values: what a Q-function returns for a batch of states, queried per action.

Every method works on a batch. ``greedy_actions`` carry no gradient; ``max`` and
``evaluate_actions`` are differentiable w.r.t. the Q-function's output.
"""
import warnings
from abc import ABCMeta, abstractmethod
from collections.abc import Callable
from functools import cached_property

import kusari
import kusari.functions as F
import numpy


def _identity(x):
    return x


def _action_indices(who: str, actions, batch_size: int):
    """Integer action indices of shape (batch_size,) as an array."""
    a = kusari.as_array(actions)
    xp = kusari.backend.get_array_module(a)
    a = xp.asarray(a)
    if a.dtype.kind not in "iu":
        raise TypeError(f"{who}: actions must hold integer action indices, got dtype {a.dtype}")
    if a.shape != (batch_size,):
        raise ValueError(f"{who}: actions must have shape ({batch_size},) (batch_size), got "
                         f"{a.shape}")
    return a


def _pick(who: str, values, actions) -> kusari.Variable:
    """``values[i, actions[i]]`` for each i: (B, n_actions, *rest) -> (B, *rest), differentiable."""
    a = _action_indices(who, actions, values.shape[0])
    if values.ndim == 2:
        return F.select_item(values, a)
    xp = values.xp
    return values[xp.arange(values.shape[0]), a]


class ActionValue(metaclass=ABCMeta):
    """Q-function output for a batch of states: Q(s, a) for any a, its maximum and argmax."""

    @property
    @abstractmethod
    def greedy_actions(self) -> kusari.Variable:
        """``argmax_a Q(s, a)`` per state, without gradient."""

    @property
    @abstractmethod
    def max(self) -> kusari.Variable:
        """``max_a Q(s, a)`` per state, of shape (batch_size,)."""

    @abstractmethod
    def evaluate_actions(self, actions) -> kusari.Variable:
        """``Q(s, a)`` for the given batch of actions, of shape (batch_size,)."""

    @property
    @abstractmethod
    def params(self) -> tuple:
        """The Variables this action value is computed from (to draw or reach the graph)."""

    def compute_advantage(self, actions) -> kusari.Variable:
        """``Q(s, a) - max_b Q(s, b)``, of shape (batch_size,)."""
        return self.evaluate_actions(actions) - self.max

    def compute_double_advantage(self, actions, argmax_actions) -> kusari.Variable:
        """``Q(s, a) - Q(s, a*)`` with ``a*`` chosen elsewhere (Double DQN), shape (batch_size,)."""
        return self.evaluate_actions(actions) - self.evaluate_actions(argmax_actions)

    def __getitem__(self, i) -> "ActionValue":
        """The action values of the states selected by ``i`` (a slice or index array)."""
        raise NotImplementedError(f"{type(self).__name__} cannot be indexed")


class DiscreteActionValue(ActionValue):
    """Q-values of a finite action set.

    Parameters
    ----------
    q_values : float Variable or array of shape (batch_size, n_actions)
    q_values_formatter : callable used by ``repr`` to format the Q-value array
    """

    def __init__(self, q_values, q_values_formatter: Callable = _identity):
        q_values = kusari.as_variable(q_values)
        if q_values.ndim != 2:
            raise ValueError(f"DiscreteActionValue: q_values must have shape (batch_size, "
                             f"n_actions), got {q_values.shape}")
        self.q_values = q_values
        self.n_actions = q_values.shape[1]
        self.q_values_formatter = q_values_formatter

    @cached_property
    def greedy_actions(self) -> kusari.Variable:
        """int32 argmax over actions, shape (batch_size,), without gradient."""
        best = self.q_values.array.argmax(axis=1).astype(numpy.int32)
        return kusari.Variable(best, requires_grad=False)

    @cached_property
    def max(self) -> kusari.Variable:
        return self.evaluate_actions(self.greedy_actions)

    def evaluate_actions(self, actions) -> kusari.Variable:
        return _pick(f"{type(self).__name__}.evaluate_actions", self.q_values, actions)

    def compute_expectation(self, beta: float) -> kusari.Variable:
        """``sum_a softmax(beta Q)(a) Q(s, a)``: the Boltzmann-policy value, shape (batch_size,)."""
        return F.sum(F.softmax(beta * self.q_values, axis=1) * self.q_values, axis=1)

    @property
    def params(self) -> tuple:
        return (self.q_values,)

    def __getitem__(self, i) -> "DiscreteActionValue":
        return DiscreteActionValue(self.q_values[i], q_values_formatter=self.q_values_formatter)

    def __repr__(self):
        return (f"{type(self).__name__} greedy_actions:{self.greedy_actions.array} "
                f"q_values:{self.q_values_formatter(self.q_values.array)}")


class DistributionalDiscreteActionValue(DiscreteActionValue):
    """Return distributions over fixed atoms for a finite action set (C51).

    Parameters
    ----------
    q_dist : float Variable or array of shape (batch_size, n_actions, n_atoms), probabilities
    z_values : float array of shape (n_atoms,), the returns the atoms stand for
    q_values_formatter : callable used by ``repr``
    """

    def __init__(self, q_dist, z_values, q_values_formatter: Callable = _identity):
        q_dist = kusari.as_variable(q_dist)
        z_values = kusari.as_array(z_values)
        if q_dist.ndim != 3 or z_values.ndim != 1 or q_dist.shape[2] != z_values.shape[0]:
            raise ValueError(f"DistributionalDiscreteActionValue: q_dist must have shape "
                             f"(batch_size, n_actions, n_atoms) and z_values (n_atoms,), got "
                             f"q_dist.shape={q_dist.shape}, z_values.shape={z_values.shape}")
        self.q_dist = q_dist
        self.z_values = z_values
        super().__init__(F.sum(q_dist * z_values.astype(q_dist.dtype, copy=False), axis=2),
                         q_values_formatter)

    @cached_property
    def max_as_distribution(self) -> kusari.Variable:
        """Return distributions of the greedy actions, shape (batch_size, n_atoms)."""
        return self.evaluate_actions_as_distribution(self.greedy_actions)

    def evaluate_actions_as_distribution(self, actions) -> kusari.Variable:
        """Return distributions of ``actions`` (shape (batch_size,)), shape (batch_size, n_atoms)."""
        return _pick(f"{type(self).__name__}.evaluate_actions_as_distribution", self.q_dist,
                     actions)

    @property
    def params(self) -> tuple:
        return (self.q_dist,)

    def __getitem__(self, i) -> "DistributionalDiscreteActionValue":
        return DistributionalDiscreteActionValue(self.q_dist[i], self.z_values,
                                                 q_values_formatter=self.q_values_formatter)


class QuantileDiscreteActionValue(DiscreteActionValue):
    """Return quantiles for a finite action set (QR-DQN, IQN); Q is their mean.

    Parameters
    ----------
    quantiles : float Variable or array of shape (batch_size, n_taus, n_actions)
    q_values_formatter : callable used by ``repr``
    """

    def __init__(self, quantiles, q_values_formatter: Callable = _identity):
        quantiles = kusari.as_variable(quantiles)
        if quantiles.ndim != 3:
            raise ValueError(f"QuantileDiscreteActionValue: quantiles must have shape "
                             f"(batch_size, n_taus, n_actions), got {quantiles.shape}")
        self.quantiles = quantiles
        super().__init__(F.mean(quantiles, axis=1), q_values_formatter)

    def evaluate_actions_as_quantiles(self, actions) -> kusari.Variable:
        """Return quantiles of ``actions`` (shape (batch_size,)), shape (batch_size, n_taus)."""
        return _pick(f"{type(self).__name__}.evaluate_actions_as_quantiles",
                     F.transpose(self.quantiles, (0, 2, 1)), actions)

    @property
    def params(self) -> tuple:
        return (self.quantiles,)

    def __getitem__(self, i) -> "QuantileDiscreteActionValue":
        return QuantileDiscreteActionValue(self.quantiles[i],
                                           q_values_formatter=self.q_values_formatter)


class QuadraticActionValue(ActionValue):
    """Q with a quadratic advantage for continuous actions (NAF, http://arxiv.org/abs/1603.00748).

    ``Q(s, a) = V(s) - 1/2 (a - mu(s))^T P(s) (a - mu(s))``.

    Parameters
    ----------
    mu : float Variable of shape (batch_size, action_size), the maximizing actions
    mat : float Variable of shape (batch_size, action_size, action_size), P(s), positive definite
    v : float Variable of shape (batch_size,) or (batch_size, 1), V(s)
    min_action, max_action : float or array of shape (action_size,), optional bounds that clip
        the greedy action
    """

    def __init__(self, mu, mat, v, min_action=None, max_action=None):
        mu, mat, v = (kusari.as_variable(t) for t in (mu, mat, v))
        b, n = mu.shape if mu.ndim == 2 else (None, None)
        if b is None or mat.shape != (b, n, n) or v.size != b:
            raise ValueError(f"QuadraticActionValue: expected mu (B, n), mat (B, n, n) and v (B,) "
                             f"or (B, 1), got mu.shape={mu.shape}, mat.shape={mat.shape}, "
                             f"v.shape={v.shape}")
        self.mu, self.mat, self.v = mu, mat, v
        self.batch_size = b
        self.min_action = self._bound(min_action)
        self.max_action = self._bound(max_action)

    def _bound(self, bound):
        if bound is None:
            return None
        return self.mu.xp.broadcast_to(self.mu.xp.asarray(bound, dtype=self.mu.dtype),
                                       self.mu.shape)

    @cached_property
    def greedy_actions(self) -> kusari.Variable:
        """``mu`` clipped to [min_action, max_action], shape (batch_size, action_size)."""
        a = self.mu
        if self.min_action is not None:
            a = F.maximum(a, self.min_action)
        if self.max_action is not None:
            a = F.minimum(a, self.max_action)
        return a

    @cached_property
    def max(self) -> kusari.Variable:
        if self.min_action is None and self.max_action is None:
            return F.reshape(self.v, (self.batch_size,))
        return self.evaluate_actions(self.greedy_actions)

    def evaluate_actions(self, actions) -> kusari.Variable:
        """``Q(s, a)`` for actions of shape (batch_size, action_size), shape (batch_size,)."""
        if actions.shape != self.mu.shape:
            raise ValueError(f"QuadraticActionValue.evaluate_actions: actions must have shape "
                             f"{self.mu.shape}, got {actions.shape}")
        d = actions - self.mu
        p_d = F.matmul(self.mat, F.expand_dims(d, 2))[:, :, 0]
        return F.reshape(self.v, (self.batch_size,)) - 0.5 * F.sum(d * p_d, axis=1)

    @property
    def params(self) -> tuple:
        return (self.mu, self.mat, self.v)

    def __getitem__(self, i) -> "QuadraticActionValue":
        return QuadraticActionValue(self.mu[i], self.mat[i], self.v[i],
                                    min_action=None if self.min_action is None
                                    else self.min_action[0],
                                    max_action=None if self.max_action is None
                                    else self.max_action[0])

    def __repr__(self):
        return (f"QuadraticActionValue greedy_actions:{self.greedy_actions.array} "
                f"v:{self.v.array}")


class SingleActionValue(ActionValue):
    """Action value known only through callables (e.g. a state-action Q-function and a policy).

    Parameters
    ----------
    evaluator : callable, actions -> Q(s, actions) of shape (batch_size,)
    maximizer : callable, () -> the greedy actions; optional
    """

    def __init__(self, evaluator: Callable, maximizer: Callable | None = None):
        self.evaluator = evaluator
        self.maximizer = maximizer

    @cached_property
    def greedy_actions(self):
        if self.maximizer is None:
            raise NotImplementedError("SingleActionValue.greedy_actions: no maximizer was given")
        return self.maximizer()

    @cached_property
    def max(self):
        return self.evaluator(self.greedy_actions)

    def evaluate_actions(self, actions):
        return self.evaluator(actions)

    @property
    def params(self) -> tuple:
        warnings.warn("SingleActionValue has no Variables until it is evaluated on some actions; "
                      "to draw its graph, use the output of evaluate_actions", stacklevel=2)
        return ()

    def __repr__(self):
        return "SingleActionValue"
