"""TD3: twin delayed deep deterministic policy gradients (Fujimoto et al., 2018)."""
import collections
import logging
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
from kusari import backend
from kusari.rl.agents._common import check_optimizer, mean_or_nan, require, require_positive_int
from kusari.rl.agents._off_policy import _OffPolicyActorCritic
from kusari.rl.utils.batch_states import batch_states as default_batch_states
from kusari.rl.utils.copy_param import synchronize_parameters

_LOGGER = logging.getLogger(__name__)


def default_target_policy_smoothing_func(batch_action):
    """Target policy smoothing: add ``clip(N(0, 0.2**2), -0.5, 0.5)`` noise, clip to [-1, 1].

    Parameters
    ----------
    batch_action : float array (B, action_size), NumPy or CuPy

    Returns
    -------
    A new array of the same shape and dtype (drawn from the array module's global generator).
    """
    xp = backend.get_array_module(batch_action)
    noise = xp.clip(0.2 * xp.random.standard_normal(batch_action.shape), -0.5, 0.5)
    return xp.clip(batch_action + noise.astype(batch_action.dtype), -1, 1)


class TD3(_OffPolicyActorCritic):
    """Twin Delayed DDPG: two critics (the smaller target value), delayed policy updates, and
    target policy smoothing.

    Parameters
    ----------
    policy : kusari.Link
        Observations (B, obs_size) -> a distribution over actions (B, action_size), usually
        ending in :class:`kusari.rl.policies.DeterministicHead`.
    q_func1, q_func2 : kusari.Link
        Called as ``q((obs, action))``, return Q-values (B, 1).
    policy_optimizer, q_func1_optimizer, q_func2_optimizer : kusari.Optimizer
        Set up with ``policy``, ``q_func1`` and ``q_func2``.
    replay_buffer : kusari.rl.replay_buffer.AbstractReplayBuffer
    gamma : float
        Discount factor.
    explorer : kusari.rl.explorer.Explorer
        Turns the policy's action into the training action (e.g. ``AdditiveGaussian``).
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    replay_start_size, minibatch_size, update_interval, n_times_update : int
        As in :class:`DDPG` (PFRL ignores ``n_times_update`` here; kusari honours it).
    phi : callable
        Feature extractor applied to observations.
    soft_update_tau : float
        Rate of the Polyak averaging of the three target networks after each policy update.
    max_grad_norm : float or None
        Clip each network's gradients to this global L2 norm before its step.
    logger : logging.Logger
    batch_states : callable
        ``batch_states(observations, device, phi)`` makes a model input.
    burnin_action_func : callable or None
        If given, ``burnin_action_func()`` chooses the training actions until the first policy
        update.
    policy_update_delay : int
        The policy (and the targets) are updated once every this many critic updates.
    target_policy_smoothing_func : callable
        Array (B, action_size) -> a noisy array of the same shape, applied to the target
        policy's actions.
    """

    _burnin_counter = "policy_n_updates"
    saved_attributes = ("policy", "q_func1", "q_func2", "target_policy", "target_q_func1",
                        "target_q_func2", "policy_optimizer", "q_func1_optimizer",
                        "q_func2_optimizer", "t", "policy_n_updates", "q_func_n_updates")

    def __init__(self, policy: kusari.Link, q_func1: kusari.Link, q_func2: kusari.Link,
                 policy_optimizer, q_func1_optimizer, q_func2_optimizer, replay_buffer,
                 gamma: float, explorer, gpu: int | None = None,
                 replay_start_size: int = 10000, minibatch_size: int = 100,
                 update_interval: int = 1, phi: Callable = lambda x: x,
                 soft_update_tau: float = 5e-3, n_times_update: int = 1,
                 max_grad_norm: float | None = None,
                 logger: logging.Logger = _LOGGER,
                 batch_states: Callable = default_batch_states,
                 burnin_action_func: Callable | None = None, policy_update_delay: int = 2,
                 target_policy_smoothing_func: Callable = default_target_policy_smoothing_func):
        require("TD3", "soft_update_tau", soft_update_tau, 0 < soft_update_tau <= 1, "in (0, 1]")
        require_positive_int("TD3", "policy_update_delay", policy_update_delay)
        require("TD3", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("TD3", "policy_optimizer", policy_optimizer, policy, "policy")
        check_optimizer("TD3", "q_func1_optimizer", q_func1_optimizer, q_func1, "q_func1")
        check_optimizer("TD3", "q_func2_optimizer", q_func2_optimizer, q_func2, "q_func2")
        self._setup_off_policy(replay_buffer, gamma, gpu, replay_start_size, minibatch_size,
                               update_interval, n_times_update, phi, batch_states,
                               burnin_action_func, logger,
                               {"policy": policy, "q_func1": q_func1, "q_func2": q_func2})
        self.policy = policy
        self.q_func1 = q_func1
        self.q_func2 = q_func2
        self.policy_optimizer = policy_optimizer
        self.q_func1_optimizer = q_func1_optimizer
        self.q_func2_optimizer = q_func2_optimizer
        self.explorer = explorer
        self.soft_update_tau = soft_update_tau
        self.max_grad_norm = max_grad_norm
        self.policy_update_delay = policy_update_delay
        self.target_policy_smoothing_func = target_policy_smoothing_func
        self.target_policy = self._make_target(policy)
        self.target_q_func1 = self._make_target(q_func1)
        self.target_q_func2 = self._make_target(q_func2)
        self.policy_n_updates = 0
        self.q_func_n_updates = 0
        self.q1_record = collections.deque(maxlen=1000)
        self.q2_record = collections.deque(maxlen=1000)
        self.q_func1_loss_record = collections.deque(maxlen=100)
        self.q_func2_loss_record = collections.deque(maxlen=100)
        self.policy_loss_record = collections.deque(maxlen=100)

    def sync_target_network(self) -> None:
        """Polyak-average the three target networks towards their sources."""
        for src, dst in ((self.policy, self.target_policy), (self.q_func1, self.target_q_func1),
                         (self.q_func2, self.target_q_func2)):
            synchronize_parameters(src, dst, "soft", self.soft_update_tau)

    def update_q_func(self, batch: dict[str, Any]) -> None:
        """One step of each critic towards ``r + discount * min(Q1', Q2')(s', smoothed pi'(s'))``."""
        next_state = batch["next_state"]
        batch_size = len(batch["reward"])
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            next_action = self.target_policy_smoothing_func(
                self.target_policy(next_state).sample().array)
            next_q = F.minimum(self.target_q_func1((next_state, next_action)),
                               self.target_q_func2((next_state, next_action)))
            target_q = self._targets(batch, self._flat_values(next_q, batch_size, "q_func").array)
        self._step_twin_critics(batch, target_q, 1.0)
        self.q_func_n_updates += 1

    def update_policy(self, batch: dict[str, Any]) -> None:
        """One policy step on ``-mean Q1(s, pi(s))``."""
        state = batch["state"]
        loss = -F.mean(self.q_func1((state, self.policy(state).rsample())))
        self.policy_loss_record.append(float(loss.array))
        self._minimize(loss, self.policy_optimizer)
        self.policy_n_updates += 1

    def update(self, experiences: list[list[dict]], errors_out=None) -> None:
        """A critic step; every ``policy_update_delay`` critic steps, a policy step and a target sync.

        Parameters
        ----------
        experiences : list of list of dict
            As ``replay_buffer.sample`` returns them.
        errors_out : unused (PFRL's signature)
        """
        batch = self._batch(experiences)
        self.update_q_func(batch)
        if self.q_func_n_updates % self.policy_update_delay == 0:
            self.update_policy(batch)
            self.sync_target_network()

    def get_statistics(self) -> list[tuple[str, Any]]:
        """``average_q1``, ``average_q2``, ``average_q_func1_loss``, ``average_q_func2_loss``,
        ``average_policy_loss``, ``policy_n_updates``, ``q_func_n_updates``."""
        return [
            ("average_q1", mean_or_nan(self.q1_record)),
            ("average_q2", mean_or_nan(self.q2_record)),
            ("average_q_func1_loss", mean_or_nan(self.q_func1_loss_record)),
            ("average_q_func2_loss", mean_or_nan(self.q_func2_loss_record)),
            ("average_policy_loss", mean_or_nan(self.policy_loss_record)),
            ("policy_n_updates", self.policy_n_updates),
            ("q_func_n_updates", self.q_func_n_updates),
        ]
