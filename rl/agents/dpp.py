"""Dynamic policy programming (Azar et al., 2012, https://arxiv.org/abs/1004.2027).

The Q-function learns action preferences ``Psi``; an operator ``L`` turns a state's preferences
into its value. ``DPP`` takes the Boltzmann average (``L Psi = sum_a softmax(eta Psi)(a) Psi(s, a)``),
``DPPL`` the soft maximum (``log sum_a exp(eta Psi(s, a)) / eta``) and ``DPPGreedy`` the maximum
(eta = infinity).
"""
from abc import abstractmethod
from typing import Any

import kusari
import kusari.functions as F
from kusari.rl.action_value import DiscreteActionValue
from kusari.rl.agents.dqn import DQN, eval_forward


class AbstractDPP(DQN):
    """DQN with the DPP target ``Psi_target(s, a) + R + discount * L Psi_target(s') - L Psi_target(s)``.

    A subclass defines :meth:`_l_operator`. Same arguments as :class:`~kusari.rl.agents.dqn.DQN`.
    """

    @abstractmethod
    def _l_operator(self, qout: DiscreteActionValue) -> kusari.Variable:
        """``L Psi`` per state, shape (B,)."""

    def _next_state_value(self, exp_batch: dict[str, Any], target_next: DiscreteActionValue):
        """``L Psi_target(s')``, shape (B,)."""
        with kusari.no_backprop_mode():
            return self._l_operator(target_next).array

    def _compute_target_values(self, exp_batch: dict[str, Any]):
        """``Psi_target(s, a) + (R + discount * (1 - terminal) * L Psi_target(s')) - L Psi_target(s)``,
        shape (B,)."""
        bellman = super()._compute_target_values(exp_batch)
        target_cur = eval_forward(self.target_model, exp_batch["state"])
        with kusari.no_backprop_mode():
            return (target_cur.evaluate_actions(exp_batch["action"]).array + bellman
                    - self._l_operator(target_cur).array)


class DPP(AbstractDPP):
    """DPP with the Boltzmann average ``L Psi = sum_a softmax(eta Psi)(a) Psi(s, a)``.

    Parameters
    ----------
    *args, **kwargs
        As :class:`~kusari.rl.agents.dqn.DQN`.
    eta : float
        Inverse temperature, > 0.
    """

    def __init__(self, *args, eta: float = 1.0, **kwargs):
        if not eta > 0:
            raise ValueError(f"{type(self).__name__}: eta must be > 0, got {eta!r}")
        self.eta = eta
        super().__init__(*args, **kwargs)

    def _l_operator(self, qout: DiscreteActionValue) -> kusari.Variable:
        return qout.compute_expectation(self.eta)


class DPPL(DPP):
    """DPP with the soft maximum ``L Psi = log sum_a exp(eta Psi(s, a)) / eta``. Same arguments as
    :class:`DPP` (``eta``: inverse temperature, > 0)."""

    def _l_operator(self, qout: DiscreteActionValue) -> kusari.Variable:
        return F.logsumexp(self.eta * qout.q_values, axis=1) / self.eta


class DPPGreedy(AbstractDPP):
    """DPP with the maximum ``L Psi = max_a Psi(s, a)`` (eta = infinity). Same arguments as
    :class:`~kusari.rl.agents.dqn.DQN`."""

    def _l_operator(self, qout: DiscreteActionValue) -> kusari.Variable:
        return qout.max
