"""DDPG: deep deterministic policy gradients (Lillicrap et al., 2016), and the replay machinery TD3 and SAC share.

The shared part (``_OffPolicyActorCritic``) records transitions, schedules replay updates as PFRL's
``ReplayUpdater`` does, and checks inputs. Target networks follow their sources through
:func:`kusari.rl.agents.dqn.synchronize_parameters`.
"""
import collections
import logging
import math
from collections.abc import Callable, Sequence
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import backend
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.agents.dqn import synchronize_parameters
from kusari.rl.replay_buffer import batch_experiences
from kusari.rl.utils.batch_states import batch_states as default_batch_states

_LOGGER = logging.getLogger(__name__)

def _mean_or_nan(xs) -> float:
    return float(numpy.mean(xs)) if xs else math.nan


def _check_optimizer(agent: str, name: str, optimizer, link: kusari.Link, link_name: str) -> None:
    if getattr(optimizer, "target", None) is None:
        raise ValueError(f"{agent}: {name} must be an optimizer set up with {link_name} "
                         f"(call {name}.setup({link_name})), got {optimizer!r}")
    owned = {id(p) for p in optimizer.target.params()}
    if not all(id(p) in owned for p in link.params()):
        raise ValueError(f"{agent}: {name} is set up on a link that does not hold the parameters "
                         f"of {link_name}")


class _OffPolicyActorCritic(AttributeSavingMixin, BatchAgent):
    """Transition recording, the replay-update schedule and input checks of DDPG, TD3 and SAC.

    A subclass implements ``update(experiences)`` (and ``_training_actions(batch_obs)`` when it
    explores otherwise than through ``self.explorer``), names in
    ``_burnin_counter`` the counter whose zero means "not updated yet" (``burnin_action_func``
    acts until then), and may override ``_after_step`` (called after each observed step).
    """

    replay_buffer_attributes = ("replay_buffer",)
    _burnin_counter = "n_updates"

    def _setup_off_policy(self, replay_buffer, gamma: float, gpu: int | None,
                          replay_start_size: int, minibatch_size: int, update_interval: int,
                          n_times_update: int, phi: Callable, batch_states: Callable,
                          burnin_action_func: Callable | None, logger) -> None:
        agent = type(self).__name__
        if not 0 <= gamma <= 1:
            raise ValueError(f"{agent}: gamma must be in [0, 1], got {gamma}")
        for name, value in (("minibatch_size", minibatch_size), ("update_interval", update_interval),
                            ("n_times_update", n_times_update)):
            if isinstance(value, bool) or not isinstance(value, (int, numpy.integer)) or value < 1:
                raise ValueError(f"{agent}: {name} must be an int >= 1, got {value!r}")
        if replay_start_size < minibatch_size:
            raise ValueError(f"{agent}: replay_start_size={replay_start_size} is below "
                             f"minibatch_size={minibatch_size}; the first update could not fill "
                             "a minibatch")
        capacity = replay_buffer.capacity
        if capacity is not None and replay_start_size > capacity:
            raise ValueError(f"{agent}: replay_start_size={replay_start_size} exceeds the replay "
                             f"buffer's capacity={capacity}; updates would never start")
        self.replay_buffer = replay_buffer
        self.gamma = gamma
        self.gpu = gpu
        self.device = None if gpu is None or gpu < 0 else backend.get_device(f"@cupy:{gpu}")
        self.replay_start_size = replay_start_size
        self.minibatch_size = minibatch_size
        self.update_interval = update_interval
        self.n_times_update = n_times_update
        self.phi = phi
        self.batch_states = batch_states
        self.burnin_action_func = burnin_action_func
        self.logger = logger
        self.t = 0
        self.batch_last_obs: list[Any] = []
        self.batch_last_action: list[Any] = []
        self._obs_spec = None  # (shape, dtype) of the first observation
        self._checked_actions = False

    def _place(self, link: kusari.Link) -> kusari.Link:
        if self.device is not None:
            link.to_device(self.device)
        return link

    @staticmethod
    def _make_target(link: kusari.Link) -> kusari.Link:
        """A copy of ``link`` with its own arrays, no gradients and no update rules."""
        target = link.copy(mode="copy")
        target.cleargrads()
        return target

    # acting -------------------------------------------------------------------------------
    def batch_act(self, batch_obs: Sequence[Any]) -> list[Any]:
        """One action per observation: explored/sampled while training, the policy's in eval mode.

        Parameters
        ----------
        batch_obs : sequence of B observations (arrays of one shape and dtype)

        Returns
        -------
        list of B actions, float arrays of shape (action_size,)
        """
        self._check_observations(batch_obs, "batch_act")
        if not self.training:
            return list(self._eval_actions(batch_obs))
        if self.burnin_action_func is not None and getattr(self, self._burnin_counter) == 0:
            batch_action = [self.burnin_action_func() for _ in range(len(batch_obs))]
            self._check_actions(numpy.asarray(batch_action), "burnin_action_func")
        else:
            batch_action = self._training_actions(batch_obs)
        n = len(batch_obs)
        if len(self.batch_last_obs) < n:
            grow = n - len(self.batch_last_obs)
            self.batch_last_obs.extend([None] * grow)
            self.batch_last_action.extend([None] * grow)
        self.batch_last_obs[:n] = batch_obs
        self.batch_last_action[:n] = batch_action
        return batch_action

    def _training_actions(self, batch_obs) -> list:
        """The policy's actions, each passed through ``self.explorer`` (DDPG, TD3)."""
        greedy = self._policy_actions(batch_obs, deterministic=False)
        return [self.explorer.select_action(self.t, lambda a=a: a) for a in greedy]

    def _eval_actions(self, batch_obs):
        return self._policy_actions(batch_obs, deterministic=False)

    def _policy_actions(self, batch_obs, deterministic: bool) -> numpy.ndarray:
        """The policy's actions (B, action_size) as a NumPy array, without a graph."""
        xs = self.batch_states(batch_obs, self.device, self.phi)
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            if self._checked_actions:
                distribution = self.policy(xs)
            else:
                distribution = self._first_policy_call(xs)
            action = distribution.mode if deterministic else distribution.sample()
        action = action.array
        if not self._checked_actions:
            self._check_actions(action, "the policy")
            self._checked_actions = True
        return action if self.device is None else backend.to_cpu(action)

    def _first_policy_call(self, xs):
        try:
            return self.policy(xs)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{type(self).__name__}: the policy cannot take the observations "
                          f"(batch of shape {getattr(xs, 'shape', None)}, dtype "
                          f"{getattr(xs, 'dtype', None)}): {e}") from e

    def _check_actions(self, action, source: str) -> None:
        agent = type(self).__name__
        if action.dtype.kind != "f" or action.ndim != 2:
            raise TypeError(f"{agent}: continuous actions are float vectors, but {source} gave "
                            f"{action.dtype} actions of batch shape {action.shape}; {agent} "
                            "cannot act in a discrete action space (use a Box action space and "
                            "a DeterministicHead or SquashedDiagonalGaussianHead policy)")

    def _check_observations(self, batch_obs: Sequence[Any], where: str) -> None:
        spec = self._obs_spec
        for obs in batch_obs:
            if not isinstance(obs, numpy.ndarray):
                continue  # phi turns other observations into arrays; nothing to compare
            if spec is None:
                spec = self._obs_spec = (obs.shape, obs.dtype)
            elif obs.shape != spec[0] or obs.dtype != spec[1]:
                raise ValueError(f"{type(self).__name__}.{where}: an observation has shape "
                                 f"{obs.shape} and dtype {obs.dtype}, but the first one had "
                                 f"shape {spec[0]} and dtype {spec[1]}")

    # observing ----------------------------------------------------------------------------
    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Store each environment's transition and update when the schedule says so.

        ``done`` (gymnasium's terminated) stores a terminal transition; ``reset`` (truncated)
        ends the episode without one, so its last state is bootstrapped from. In eval mode
        nothing is stored and no counter moves.
        """
        if not self.training:
            return
        n = len(batch_obs)
        if not len(batch_reward) == len(batch_done) == len(batch_reset) == n:
            raise ValueError(f"{type(self).__name__}.batch_observe: batch_obs, batch_reward, "
                             f"batch_done and batch_reset must have one length, got {n}, "
                             f"{len(batch_reward)}, {len(batch_done)}, {len(batch_reset)}")
        self._check_observations(batch_obs, "batch_observe")
        last_obs, last_action = self.batch_last_obs, self.batch_last_action
        for i in range(n):
            self.t += 1
            self._after_step()
            if i < len(last_obs) and last_obs[i] is not None:
                self.replay_buffer.append(state=last_obs[i], action=last_action[i],
                                          reward=batch_reward[i], next_state=batch_obs[i],
                                          next_action=None, is_state_terminal=batch_done[i],
                                          env_id=i)
                if batch_reset[i] or batch_done[i]:
                    last_obs[i] = None
                    last_action[i] = None
                    self.replay_buffer.stop_current_episode(env_id=i)
            self._update_if_necessary()

    def _after_step(self) -> None:
        """Called once per environment step while training, after ``t`` advanced."""

    def _update_if_necessary(self) -> bool:
        # PFRL's ReplayUpdater.update_if_necessary, read afresh at every step
        if len(self.replay_buffer) < self.replay_start_size or self.t % self.update_interval:
            return False
        for _ in range(self.n_times_update):
            self.update(self.replay_buffer.sample(self.minibatch_size))
        return True

    # updating -----------------------------------------------------------------------------
    def _batch(self, experiences: list[list[dict]]) -> dict[str, Any]:
        return batch_experiences(experiences, self.device, self.phi, self.gamma,
                                 batch_states=self.batch_states)

    def _flat_values(self, values: kusari.Variable, batch_size: int, who: str) -> kusari.Variable:
        """A critic's (B, 1) output as (B,); anything else is refused."""
        if values.size != batch_size:
            raise ValueError(f"{type(self).__name__}: {who} must return one value per "
                             f"(state, action) pair, shape ({batch_size}, 1), got {values.shape}")
        return F.reshape(values, (batch_size,))

    def _minimize(self, loss: kusari.Variable, *optimizers) -> None:
        """Backpropagate ``loss`` and step each optimizer (after clipping, if ``max_grad_norm``).

        One backward serves several optimizers when ``loss`` sums their independent losses.
        """
        for optimizer in optimizers:
            optimizer.target.cleargrads()
        loss.backward()
        max_grad_norm = getattr(self, "max_grad_norm", None)
        for optimizer in optimizers:
            if max_grad_norm is not None:
                GradientClipping(max_grad_norm)(optimizer)
            optimizer.update()

    def _targets(self, batch: dict[str, Any], next_value) -> numpy.ndarray:
        """``r + discount * (1 - terminal) * next_value``: the n-step bootstrapped target (B,)."""
        return batch["reward"] + batch["discount"] * (1.0 - batch["is_state_terminal"]) * next_value


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
    gpu : int or None
        CuPy device id; None or negative runs on NumPy.
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
        if target_update_method not in ("hard", "soft"):
            raise ValueError(f"DDPG: target_update_method must be 'hard' or 'soft', got "
                             f"{target_update_method!r}")
        if not 0 < soft_update_tau <= 1:
            raise ValueError(f"DDPG: soft_update_tau must be in (0, 1], got {soft_update_tau}")
        if target_update_interval < 1:
            raise ValueError(f"DDPG: target_update_interval must be >= 1, got "
                             f"{target_update_interval}")
        _check_optimizer("DDPG", "actor_optimizer", actor_optimizer, policy, "policy")
        _check_optimizer("DDPG", "critic_optimizer", critic_optimizer, q_func, "q_func")
        self._setup_off_policy(replay_buffer, gamma, gpu, replay_start_size, minibatch_size,
                               update_interval, n_times_update, phi, batch_states,
                               burnin_action_func, logger)
        self.policy = self._place(policy)
        self.q_function = self._place(q_func)
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
            ("average_q", _mean_or_nan(self.q_record)),
            ("average_actor_loss", _mean_or_nan(self.actor_loss_record)),
            ("average_critic_loss", _mean_or_nan(self.critic_loss_record)),
            ("n_updates", self.n_updates),
        ]
