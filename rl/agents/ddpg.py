"""DDPG: deep deterministic policy gradients (Lillicrap et al., 2016)."""
import collections
import logging
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
from kusari.rl.agents._common import check_optimizer, mean_or_nan, require, require_positive_int
from kusari.rl.agents._off_policy import _OffPolicyActorCritic
from kusari.rl.utils.batch_states import batch_states as default_batch_states
from kusari.rl.utils.copy_param import synchronize_parameters

_LOGGER = logging.getLogger(__name__)


class DDPG(_OffPolicyActorCritic):
    """Deep Deterministic Policy Gradients; with a Gaussian policy head it is SVG(0).

    Parameters
    ----------
    policy : kusari.Link
        Observations (B, obs_size) -> a distribution over actions (B, action_size), usually
        ending in :class:`kusari.rl.policies.DeterministicHead`.
    q_func : kusari.Link
        Called as ``q_func((obs, action))``, returns Q-values (B, 1).
    actor_optimizer, critic_optimizer : kusari.Optimizer
        Set up with ``policy`` and ``q_func``.
    replay_buffer : kusari.rl.replay_buffer.AbstractReplayBuffer
    gamma : float
        Discount factor.
    explorer : kusari.rl.explorer.Explorer
        Turns the policy's action into the training action (e.g. ``AdditiveOU``).
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    replay_start_size : int
        Updates start once the buffer holds this many transitions (at most its capacity).
    minibatch_size, update_interval, n_times_update : int
        Each update samples ``minibatch_size`` transitions; ``n_times_update`` updates run every
        ``update_interval`` steps.
    target_update_interval : int
        The target networks are synchronized every this many steps.
    phi : callable
        Feature extractor applied to observations.
    target_update_method : str
        ``'hard'`` (copy) or ``'soft'`` (Polyak averaging with ``soft_update_tau``).
    soft_update_tau : float
    recurrent : bool
        Recurrent DDPG is not built (PFRL does not build it either); True raises
        NotImplementedError.
    episodic_update_len : int or None
        Only for recurrent updates; accepted for PFRL's signature.
    logger : logging.Logger
    batch_states : callable
        ``batch_states(observations, device, phi)`` makes a model input.
    burnin_action_func : callable or None
        If given, ``burnin_action_func()`` chooses the training actions until the first update.
    """

    _burnin_counter = "n_updates"
    saved_attributes = ("policy", "q_function", "target_policy", "target_q_function",
                        "actor_optimizer", "critic_optimizer", "t", "n_updates")

    def __init__(self, policy: kusari.Link, q_func: kusari.Link, actor_optimizer, critic_optimizer,
                 replay_buffer, gamma: float, explorer, gpu: int | None = None,
                 replay_start_size: int = 50000, minibatch_size: int = 32,
                 update_interval: int = 1, target_update_interval: int = 10000,
                 phi: Callable = lambda x: x, target_update_method: str = "hard",
                 soft_update_tau: float = 1e-2, n_times_update: int = 1,
                 recurrent: bool = False, episodic_update_len: int | None = None,
                 logger: logging.Logger = _LOGGER,
                 batch_states: Callable = default_batch_states,
                 burnin_action_func: Callable | None = None):
        if recurrent:
            raise NotImplementedError("DDPG: recurrent=True is not built (PFRL does not build it)")
        require("DDPG", "target_update_method", target_update_method,
                target_update_method in ("hard", "soft"), "'hard' or 'soft'")
        require("DDPG", "soft_update_tau", soft_update_tau, 0 < soft_update_tau <= 1, "in (0, 1]")
        require_positive_int("DDPG", "target_update_interval", target_update_interval)
        check_optimizer("DDPG", "actor_optimizer", actor_optimizer, policy, "policy")
        check_optimizer("DDPG", "critic_optimizer", critic_optimizer, q_func, "q_func")
        self._setup_off_policy(replay_buffer, gamma, gpu, replay_start_size, minibatch_size,
                               update_interval, n_times_update, phi, batch_states,
                               burnin_action_func, logger, {"policy": policy, "q_func": q_func})
        self.policy = policy
        self.q_function = q_func
        self.actor_optimizer = actor_optimizer
        self.critic_optimizer = critic_optimizer
        self.explorer = explorer
        self.target_update_interval = target_update_interval
        self.target_update_method = target_update_method
        self.soft_update_tau = soft_update_tau
        self.recurrent = recurrent
        self.episodic_update_len = episodic_update_len
        self.target_policy = self._make_target(policy)
        self.target_q_function = self._make_target(q_func)
        self.n_updates = 0
        self.q_record = collections.deque(maxlen=1000)
        self.actor_loss_record = collections.deque(maxlen=100)
        self.critic_loss_record = collections.deque(maxlen=100)

    def sync_target_network(self) -> None:
        """Move the target policy and Q-function towards the current ones (hard or soft)."""
        for src, dst in ((self.policy, self.target_policy),
                         (self.q_function, self.target_q_function)):
            synchronize_parameters(src, dst, self.target_update_method, self.soft_update_tau)

    def _after_step(self) -> None:
        if self.t % self.target_update_interval == 0:
            self.sync_target_network()

    def compute_critic_loss(self, batch: dict[str, Any]) -> kusari.Variable:
        """Mean squared TD error of ``q_func`` against the target networks' bootstrapped value."""
        state, next_state = batch["state"], batch["next_state"]
        batch_size = len(batch["reward"])
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            next_action = self.target_policy(next_state).sample()
            next_q = self.target_q_function((next_state, next_action))
            target_q = self._targets(batch, self._flat_values(next_q, batch_size, "q_func").array)
        predict_q = self._flat_values(self.q_function((state, batch["action"])), batch_size,
                                      "q_func")
        loss = F.mean_squared_error(predict_q, target_q)
        self.critic_loss_record.append(float(loss.array))
        return loss

    def compute_actor_loss(self, batch: dict[str, Any]) -> kusari.Variable:
        """``-mean Q(s, pi(s))``, differentiated through the reparameterized action."""
        state = batch["state"]
        q = self.q_function((state, self.policy(state).rsample()))
        loss = -F.mean(q)
        self.q_record.extend(q.array.ravel().tolist())
        self.actor_loss_record.append(float(loss.array))
        return loss

    def update(self, experiences: list[list[dict]], errors_out=None) -> None:
        """One critic step, then one actor step, on a sampled minibatch.

        Parameters
        ----------
        experiences : list of list of dict
            As ``replay_buffer.sample`` returns them (n-step windows are bootstrapped with
            ``gamma ** n``).
        errors_out : unused (PFRL's signature)
        """
        batch = self._batch(experiences)
        self._minimize(self.compute_critic_loss(batch), self.critic_optimizer)
        self._minimize(self.compute_actor_loss(batch), self.actor_optimizer)
        self.n_updates += 1

    def get_statistics(self) -> list[tuple[str, Any]]:
        """``average_q``, ``average_actor_loss``, ``average_critic_loss``, ``n_updates``."""
        return [
            ("average_q", mean_or_nan(self.q_record)),
            ("average_actor_loss", mean_or_nan(self.actor_loss_record)),
            ("average_critic_loss", mean_or_nan(self.critic_loss_record)),
            ("n_updates", self.n_updates),
        ]
