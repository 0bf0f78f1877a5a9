"""Soft Actor-Critic with automatic temperature tuning (Haarnoja et al., 2018, arXiv:1812.05905)."""
import collections
import logging
import math
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import optimizers
from kusari.rl.agents._common import check_optimizer, mean_or_nan, place_model, require
from kusari.rl.agents._off_policy import _OffPolicyActorCritic
from kusari.rl.utils.batch_states import batch_states as default_batch_states
from kusari.rl.utils.copy_param import synchronize_parameters

_LOGGER = logging.getLogger(__name__)


class TemperatureHolder(kusari.Link):
    """A Link holding the learnable ``log_temperature`` (a float32 scalar parameter).

    Parameters
    ----------
    initial_log_temperature : float
    """

    def __init__(self, initial_log_temperature: float = 0.0):
        super().__init__()
        with self.init_scope():
            self.log_temperature = kusari.Parameter(
                numpy.asarray(initial_log_temperature, dtype=numpy.float32))

    def forward(self) -> kusari.Variable:
        """The temperature ``exp(log_temperature)``, a scalar Variable."""
        return F.exp(self.log_temperature)


class SoftActorCritic(_OffPolicyActorCritic):
    """Soft Actor-Critic: twin soft Q-functions, a stochastic (squashed Gaussian) policy, and an
    entropy temperature that is fixed or tuned towards ``entropy_target``.

    Parameters
    ----------
    policy : kusari.Link
        Observations (B, obs_size) -> a distribution with ``rsample`` and ``log_prob``, usually
        ending in :class:`kusari.rl.policies.SquashedDiagonalGaussianHead`.
    q_func1, q_func2 : kusari.Link
        Called as ``q((obs, action))``, return Q-values (B, 1).
    policy_optimizer, q_func1_optimizer, q_func2_optimizer : kusari.Optimizer
        Set up with ``policy``, ``q_func1`` and ``q_func2``.
    replay_buffer : kusari.rl.replay_buffer.AbstractReplayBuffer
    gamma : float
        Discount factor.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    replay_start_size, minibatch_size, update_interval : int
        As in :class:`DDPG`.
    phi : callable
        Feature extractor applied to observations.
    soft_update_tau : float
        Rate of the Polyak averaging of the target critics after each update.
    max_grad_norm : float or None
        Clip each network's gradients to this global L2 norm before its step.
    logger : logging.Logger
    batch_states : callable
        ``batch_states(observations, device, phi)`` makes a model input.
    burnin_action_func : callable or None
        If given, ``burnin_action_func()`` chooses the training actions until the first update.
    initial_temperature : float
        The temperature (> 0); it stays fixed when ``entropy_target`` is None.
    entropy_target : float or None
        If given, the log-temperature (``temperature_holder``) is trained by its own Adam
        (``temperature_optimizer``) so that the policy's entropy approaches it (usually
        ``-action_size``).
    temperature_optimizer_lr : float or None
        That Adam's ``alpha``; None keeps Adam's default (1e-3).
    act_deterministically : bool
        In eval mode, act with the distribution's mode instead of a draw.
    """

    _burnin_counter = "n_policy_updates"
    saved_attributes = ("policy", "q_func1", "q_func2", "target_q_func1", "target_q_func2",
                        "policy_optimizer", "q_func1_optimizer", "q_func2_optimizer",
                        "temperature_holder", "temperature_optimizer", "t", "n_policy_updates")

    def __init__(self, policy: kusari.Link, q_func1: kusari.Link, q_func2: kusari.Link,
                 policy_optimizer, q_func1_optimizer, q_func2_optimizer, replay_buffer,
                 gamma: float, gpu: int | None = None, replay_start_size: int = 10000,
                 minibatch_size: int = 100, update_interval: int = 1,
                 phi: Callable = lambda x: x, soft_update_tau: float = 5e-3,
                 max_grad_norm: float | None = None,
                 logger: logging.Logger = _LOGGER,
                 batch_states: Callable = default_batch_states,
                 burnin_action_func: Callable | None = None,
                 initial_temperature: float = 1.0, entropy_target: float | None = None,
                 temperature_optimizer_lr: float | None = None,
                 act_deterministically: bool = True):
        who = "SoftActorCritic"
        require(who, "soft_update_tau", soft_update_tau, 0 < soft_update_tau <= 1, "in (0, 1]")
        require(who, "initial_temperature", initial_temperature, initial_temperature > 0, "> 0")
        require(who, "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer(who, "policy_optimizer", policy_optimizer, policy, "policy")
        check_optimizer(who, "q_func1_optimizer", q_func1_optimizer, q_func1, "q_func1")
        check_optimizer(who, "q_func2_optimizer", q_func2_optimizer, q_func2, "q_func2")
        self._setup_off_policy(replay_buffer, gamma, gpu, replay_start_size, minibatch_size,
                               update_interval, 1, phi, batch_states, burnin_action_func, logger,
                               {"policy": policy, "q_func1": q_func1, "q_func2": q_func2})
        self.policy = policy
        self.q_func1 = q_func1
        self.q_func2 = q_func2
        self.policy_optimizer = policy_optimizer
        self.q_func1_optimizer = q_func1_optimizer
        self.q_func2_optimizer = q_func2_optimizer
        self.soft_update_tau = soft_update_tau
        self.max_grad_norm = max_grad_norm
        self.initial_temperature = initial_temperature
        self.entropy_target = entropy_target
        self.act_deterministically = act_deterministically
        if entropy_target is None:
            self.temperature_holder = None
            self.temperature_optimizer = None
        else:
            self.temperature_holder = TemperatureHolder(math.log(initial_temperature))
            place_model(gpu, self.temperature_holder)
            self.temperature_optimizer = (optimizers.Adam() if temperature_optimizer_lr is None
                                          else optimizers.Adam(alpha=temperature_optimizer_lr))
            self.temperature_optimizer.setup(self.temperature_holder)
        self.target_q_func1 = self._make_target(q_func1)
        self.target_q_func2 = self._make_target(q_func2)
        self.n_policy_updates = 0
        self.q1_record = collections.deque(maxlen=1000)
        self.q2_record = collections.deque(maxlen=1000)
        self.entropy_record = collections.deque(maxlen=1000)
        self.q_func1_loss_record = collections.deque(maxlen=100)
        self.q_func2_loss_record = collections.deque(maxlen=100)

    @property
    def temperature(self) -> float:
        """The current entropy temperature."""
        if self.entropy_target is None:
            return self.initial_temperature
        return math.exp(float(self.temperature_holder.log_temperature.array))

    def sync_target_network(self) -> None:
        """Polyak-average the target critics towards the critics."""
        for src, dst in ((self.q_func1, self.target_q_func1), (self.q_func2, self.target_q_func2)):
            synchronize_parameters(src, dst, "soft", self.soft_update_tau)

    def _training_actions(self, batch_obs) -> list:
        return list(self._policy_actions(batch_obs, deterministic=False))

    def _eval_actions(self, batch_obs):
        return self._policy_actions(batch_obs, deterministic=self.act_deterministically)

    def update_q_func(self, batch: dict[str, Any]) -> None:
        """One step of each critic towards the soft target
        ``r + discount * (min(Q1', Q2')(s', a') - temperature * log pi(a'|s'))``, ``a' ~ pi(s')``."""
        next_state = batch["next_state"]
        batch_size = len(batch["reward"])
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            next_distribution = self.policy(next_state)
            next_action = next_distribution.sample()
            next_log_prob = next_distribution.log_prob(next_action)
            next_q = F.minimum(self.target_q_func1((next_state, next_action)),
                               self.target_q_func2((next_state, next_action)))
            soft_value = (self._flat_values(next_q, batch_size, "q_func").array
                          - self.temperature * next_log_prob.array)
            target_q = self._targets(batch, soft_value)
        self._step_twin_critics(batch, target_q, 0.5)

    def update_temperature(self, log_prob: numpy.ndarray) -> None:
        """One Adam step of the log-temperature on ``-mean(temperature * (log_prob + target))``.

        With ``temperature = exp(log_temperature)`` that loss is its own derivative with respect to
        ``log_temperature``, so the gradient is computed in closed form, without a graph.

        Parameters
        ----------
        log_prob : array (B,), the policy's log-densities of its own draws (no gradient)
        """
        log_temperature = self.temperature_holder.log_temperature
        xp = kusari.backend.get_array_module(log_temperature.array)
        gradient = -(xp.exp(log_temperature.array) * (log_prob + self.entropy_target).mean())
        log_temperature.grad = xp.asarray(gradient, dtype=log_temperature.dtype)
        self._step(self.temperature_optimizer)

    def update_policy_and_temperature(self, batch: dict[str, Any]) -> None:
        """One policy step on ``mean(temperature * log pi(a|s) - min(Q1, Q2)(s, a))`` with a
        reparameterized ``a ~ pi(s)``, then one temperature step (when it is tuned)."""
        state = batch["state"]
        distribution = self.policy(state)
        action = distribution.rsample()
        log_prob = distribution.log_prob(action)
        q = F.minimum(self.q_func1((state, action)), self.q_func2((state, action)))
        q = self._flat_values(q, len(batch["reward"]), "q_func")
        loss = F.mean(self.temperature * log_prob - q)
        self._minimize(loss, self.policy_optimizer)
        self.n_policy_updates += 1
        if self.entropy_target is not None:
            self.update_temperature(log_prob.array)
        try:
            entropy = distribution.entropy.array
        except NotImplementedError:  # the squashed Gaussian has no closed form: record -log p
            entropy = -log_prob.array
        self.entropy_record.extend(entropy.tolist())

    def update(self, experiences: list[list[dict]], errors_out=None) -> None:
        """A critic step, a policy (and temperature) step and a target sync.

        Parameters
        ----------
        experiences : list of list of dict
            As ``replay_buffer.sample`` returns them.
        errors_out : unused (PFRL's signature)
        """
        batch = self._batch(experiences)
        self.update_q_func(batch)
        self.update_policy_and_temperature(batch)
        self.sync_target_network()

    def get_statistics(self) -> list[tuple[str, Any]]:
        """``average_q1``, ``average_q2``, ``average_q_func1_loss``, ``average_q_func2_loss``,
        ``n_updates``, ``average_entropy``, ``temperature``."""
        return [
            ("average_q1", mean_or_nan(self.q1_record)),
            ("average_q2", mean_or_nan(self.q2_record)),
            ("average_q_func1_loss", mean_or_nan(self.q_func1_loss_record)),
            ("average_q_func2_loss", mean_or_nan(self.q_func2_loss_record)),
            ("n_updates", self.n_policy_updates),
            ("average_entropy", mean_or_nan(self.entropy_record)),
            ("temperature", self.temperature),
        ]
