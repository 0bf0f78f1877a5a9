"""IQN (Dabney et al., 2018, https://arxiv.org/abs/1806.06923): implicit quantile networks, PFRL's agent and Q-function."""
import math
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
from kusari.rl.action_value import ActionValue, QuantileDiscreteActionValue
from kusari.rl.agents._common import require_positive_int
from kusari.rl.agents._distributional import (
    DistributionalDQNBase,
    bellman_backup,
    check_action_value,
)
from kusari.rl.functions import quantile_huber_loss


def cosine_basis_functions(x, n_basis_functions: int = 64) -> kusari.Variable:
    """``cos(pi i x)`` for i = 1 .. n (IQN's eq. 4 with PFRL's correction of i's range).

    x : float Variable or array of any shape; returns shape ``x.shape + (n_basis_functions,)``.
    """
    x = kusari.as_variable(x)
    i_pi = x.xp.arange(1, n_basis_functions + 1, dtype=x.dtype) * math.pi
    shape = x.shape + (n_basis_functions,)
    return F.cos(F.broadcast_to(F.expand_dims(x, -1), shape) * F.broadcast_to(i_pi, shape))


class CosineBasisLinear(kusari.Chain):
    """A Linear layer on the cosine basis of its input: (...) -> (..., out_size).

    Parameters
    ----------
    n_basis_functions : int
    out_size : int
    """

    def __init__(self, n_basis_functions: int, out_size: int):
        super().__init__()
        self.n_basis_functions = n_basis_functions
        self.out_size = out_size
        with self.init_scope():
            self.linear = L.Linear(n_basis_functions, out_size)

    def forward(self, x) -> kusari.Variable:
        """Embeddings of ``x`` (any shape), of shape ``x.shape + (out_size,)``."""
        h = F.reshape(cosine_basis_functions(x, self.n_basis_functions), (-1, self.n_basis_functions))
        return F.reshape(self.linear(h), tuple(x.shape) + (self.out_size,))


class ImplicitQuantileQFunction(kusari.Chain):
    """IQN's Q-function: ``q(x)`` returns ``taus -> QuantileDiscreteActionValue``.

    The quantile at level tau of each action is ``f(psi(x) * phi(tau))``.

    Parameters
    ----------
    psi : Link, (B, ...) observations -> (B, hidden_size)
    phi : Link, (B, n_taus) levels -> (B, n_taus, hidden_size)
    f : Link, (B * n_taus, hidden_size) -> (B * n_taus, n_actions)
    """

    def __init__(self, psi: kusari.Link, phi: kusari.Link, f: kusari.Link):
        super().__init__()
        with self.init_scope():
            self.psi = psi
            self.phi = phi
            self.f = f

    def forward(self, x) -> Callable[[Any], QuantileDiscreteActionValue]:
        """The observations' features, and a function of levels ``taus`` (B, n_taus) giving
        their quantiles (B, n_taus, n_actions)."""
        psi_x = self.psi(x)
        if psi_x.ndim != 2:
            raise ValueError(f"ImplicitQuantileQFunction: psi must return (batch_size, hidden_size), "
                             f"got shape {psi_x.shape}")

        def evaluate_with_quantile_thresholds(taus) -> QuantileDiscreteActionValue:
            b, hidden = psi_x.shape
            if taus.ndim != 2 or taus.shape[0] != b:
                raise ValueError(f"ImplicitQuantileQFunction: taus must have shape ({b}, n_taus), "
                                 f"got {taus.shape}")
            phi_taus = self.phi(taus)
            n_taus = taus.shape[1]
            if phi_taus.shape != (b, n_taus, hidden):
                raise ValueError(f"ImplicitQuantileQFunction: phi must map taus {taus.shape} to "
                                 f"{(b, n_taus, hidden)} (psi's width), got {phi_taus.shape}")
            h = F.broadcast_to(F.expand_dims(psi_x, 1), phi_taus.shape) * phi_taus
            q = self.f(F.reshape(h, (b * n_taus, hidden)))
            return QuantileDiscreteActionValue(F.reshape(q, (b, n_taus, q.shape[-1])))
        return evaluate_with_quantile_thresholds


class IQN(DistributionalDQNBase):
    """Implicit quantile networks: quantiles at levels drawn anew for every update and action.

    The model's quantiles of the action taken, at N uniform levels, regress on N' target samples
    ``R + discount * Z_tau'(s', a*)`` of the target network, where ``a*`` maximizes the target
    network's mean over K levels; the loss of an example is the quantile Huber loss (delta 1)
    summed over the N levels and averaged over the N' targets; the priorities of prioritized
    replay are its mean over both (PFRL's).

    Parameters
    ----------
    *args, **kwargs
        As :class:`~kusari.rl.agents.dqn.DQN`; the ``q_function`` is an
        :class:`ImplicitQuantileQFunction` (or returns its kind of callable) and ``clip_delta`` is
        ignored.
    quantile_thresholds_N, quantile_thresholds_N_prime : int
        Levels of the prediction and of the target samples per update (the paper's 64 and 64).
    quantile_thresholds_K : int
        Levels whose mean values an action, to act and to choose ``a*`` (the paper's 32).
    act_deterministically : bool
        In eval mode, act on K evenly spaced levels in [0, 1] instead of random ones.

    Statistics as DQN's; ``average_q`` averages the Q-values of every action (PFRL's).
    """

    def __init__(self, *args, quantile_thresholds_N: int = 64, quantile_thresholds_N_prime: int = 64,
                 quantile_thresholds_K: int = 32, act_deterministically: bool = False, **kwargs):
        name = type(self).__name__
        for arg, value in (("quantile_thresholds_N", quantile_thresholds_N),
                           ("quantile_thresholds_N_prime", quantile_thresholds_N_prime),
                           ("quantile_thresholds_K", quantile_thresholds_K)):
            require_positive_int(name, arg, value)
        self.quantile_thresholds_N = quantile_thresholds_N
        self.quantile_thresholds_N_prime = quantile_thresholds_N_prime
        self.quantile_thresholds_K = quantile_thresholds_K
        self.act_deterministically = act_deterministically
        super().__init__(*args, **kwargs)

    def _sample_taus(self, batch_size: int, n: int):
        """Quantile levels drawn uniformly from [0, 1), float32 of shape (batch_size, n), on the device."""
        taus = numpy.random.uniform(0, 1, (batch_size, n)).astype(numpy.float32)
        return kusari.backend.to_device(self.device, taus)

    def _quantiles(self, tau2av, taus) -> QuantileDiscreteActionValue:
        av = tau2av(taus)
        check_action_value(type(self).__name__, av, QuantileDiscreteActionValue)
        return av

    def _action_values(self, batch_x) -> ActionValue:
        """The model's quantiles at K random levels (evenly spaced in eval mode if asked)."""
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            tau2av = self.model(batch_x)
            if not callable(tau2av) or isinstance(tau2av, ActionValue):
                raise TypeError(f"{type(self).__name__}: the q_function must return a function of "
                                f"quantile levels (ImplicitQuantileQFunction), got {type(tau2av).__name__}")
            b, k = len(batch_x), self.quantile_thresholds_K
            if not self.training and self.act_deterministically:
                taus = kusari.backend.to_device(
                    self.device, numpy.tile(numpy.linspace(0, 1, k, dtype=numpy.float32), (b, 1)))
            else:
                taus = self._sample_taus(b, k)
            return self._quantiles(tau2av, taus)

    def _losses(self, exp_batch: dict[str, Any]):
        batch_size = len(exp_batch["reward"])
        taus = self._sample_taus(batch_size, self.quantile_thresholds_N)
        av = self._quantiles(self.model(exp_batch["state"]), taus)
        y = av.evaluate_actions_as_quantiles(exp_batch["action"])
        target = self._target_samples(exp_batch).astype(y.dtype, copy=False)
        eltwise = quantile_huber_loss(y, target, taus)
        losses = F.sum(F.mean(eltwise, axis=2), axis=1)
        return av.q_values.array, losses, losses.array / self.quantile_thresholds_N

    def _target_samples(self, exp_batch: dict[str, Any]):
        """``R + discount * (1 - terminal) * Z_tau'(s', a*)``, shape (B, N'), without graph."""
        batch_size = len(exp_batch["reward"])
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            tau2av = self.target_model(exp_batch["next_state"])
            greedy = self._quantiles(tau2av, self._sample_taus(
                batch_size, self.quantile_thresholds_K)).greedy_actions
            next_quantiles = self._quantiles(tau2av, self._sample_taus(
                batch_size, self.quantile_thresholds_N_prime)).evaluate_actions_as_quantiles(greedy)
        return bellman_backup(exp_batch, next_quantiles.array)
