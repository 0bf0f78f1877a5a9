"""DQN (Mnih et al., 2015): Q-learning from replayed experience against a target network.

``DQN`` also serves its variants: ``DoubleDQN`` and ``SARSA`` change how the next state is valued,
``PAL``, ``DoublePAL``, ``AL`` and the DPPs the target itself, ``ResidualDQN`` also differentiates it.
Everything else (acting, storing, scheduling updates, the loss, prioritized replay, target
synchronization, saving) lives here once.
"""
import collections
import copy
from collections.abc import Callable, Sequence
from logging import Logger, getLogger
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import backend, optimizer_hooks
from kusari.rl.action_value import ActionValue, DiscreteActionValue
from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.agents._common import (
    ObservationCheck,
    check_optimizer,
    check_step,
    mean_or_nan,
    place_model,
    refused_input,
    require,
    require_positive_int,
    store_transition,
)
from kusari.rl.replay_buffer import ReplayUpdater, batch_experiences
from kusari.rl.replay_buffers import PrioritizedReplayBuffer
from kusari.rl.replay_buffers.recurrent_batch import batch_recurrent_experiences
from kusari.rl.utils.batch_states import batch_states as default_batch_states
from kusari.rl.utils.copy_param import synchronize_parameters
from kusari.rl.utils.recurrent import (
    check_recurrence,
    detach_recurrent_state,
    forward,
    get_recurrent_state_at,
    one_step_forward,
    restart_ended_episodes,
)

Q_RECORD_LEN = 1000  # PFRL averages the last 1000 Q-values and the last 100 losses
LOSS_RECORD_LEN = 100
_LOGGER = getLogger(__name__)


def compute_value_loss(y, t, clip_delta: bool = True, batch_accumulator: str = "mean",
                       weights=None) -> kusari.Variable:
    """The regression loss of predicted values ``y`` towards targets ``t``.

    Parameters
    ----------
    y : Variable of shape (B,) or (B, 1)
        Predicted values.
    t : array of the same size
        Target values (constants).
    clip_delta : bool
        Huber loss with delta 1 when True, else half the squared error.
    batch_accumulator : {'mean', 'sum'}
        Divide the summed loss by ``B``, or not.
    weights : array of shape (B,), optional
        Per-sample factors (importance weights of prioritized replay).

    Returns
    -------
    Variable
        The scalar loss, in ``y``'s dtype.
    """
    if batch_accumulator not in ("mean", "sum"):
        raise ValueError(f"compute_value_loss: batch_accumulator must be 'mean' or 'sum', got "
                         f"{batch_accumulator!r}")
    # only ops on the inputs (no array methods), so that a static_graph replay sees new values
    batch_size = y.shape[0]
    if y.ndim != 1:
        y = F.reshape(y, (batch_size,))
    if t.ndim != 1:
        t = F.reshape(t, (batch_size,))
    if clip_delta:
        losses = F.huber_loss(y, t, delta=1.0, reduce="no")
    else:
        losses = F.square(y - t) * 0.5
    if weights is not None:
        if weights.dtype != losses.dtype:
            weights = F.cast(weights, losses.dtype)
        losses = losses * weights
    loss = F.sum(losses)
    return loss / batch_size if batch_accumulator == "mean" else loss


def eval_forward(link: kusari.Link, x) -> ActionValue:
    """``link(x)`` for a target or an action: no graph, test-mode layers (PFRL's eval()); a
    replayed batch of episodes (``RecurrentBatch``) runs through the recurrent ``link``."""
    with kusari.no_backprop_mode(), kusari.using_config("train", False):
        return forward(link, x)


def _eager_loss_and_gradients(model: kusari.Link, state, action, target, weights, clip_delta: bool,
                              batch_accumulator: str) -> tuple[kusari.Variable, kusari.Variable]:
    """``Q(s, a)`` (B,) and the loss, whose gradients are added into the model's parameters; run
    as it is for recurrent models (``state`` a ``RecurrentBatch``, whose lengths change at each
    update), traced by :func:`_loss_and_gradients` for the others."""
    y = forward(model, state).evaluate_actions(action)
    loss = compute_value_loss(y, target, clip_delta, batch_accumulator, weights)
    loss.backward()
    return y, loss


@kusari.static_graph(warn_on_fallback=False)
def _loss_and_gradients(model: kusari.Link, state, action, target, weights, clip_delta: bool,
                        batch_accumulator: str) -> tuple[kusari.Variable, kusari.Variable]:
    """:func:`_eager_loss_and_gradients`, traced.

    Traced once per signature and replayed after (bit-identical to running it eagerly), which
    removes most of the per-op overhead of small networks' updates. A q_function that reads its
    input's data on the Python side (running statistics, a branch on a value) cannot be replayed:
    static_graph's guards see the read and this update then runs eagerly for that q_function,
    without a warning (the user did not ask for tracing).
    """
    return _eager_loss_and_gradients(model, state, action, target, weights, clip_delta,
                                     batch_accumulator)


class DQN(AttributeSavingMixin, BatchAgent):
    """Deep Q-Network (Mnih et al., 2015), with n-step and prioritized replay.

    Parameters
    ----------
    q_function : Link
        Maps a batch of observations to an :class:`~kusari.rl.action_value.ActionValue`; trained in
        place.
    optimizer : Optimizer
        Already ``setup`` on ``q_function`` (or on a link that contains it).
    replay_buffer : ReplayBuffer
        ``ReplayBuffer(num_steps=n)`` gives n-step returns; a ``PrioritizedReplayBuffer`` gets
        importance weights in the loss and the TD errors back.
    gamma : float
        Discount factor, in [0, 1].
    explorer : Explorer
        Turns the greedy action into the one taken while training.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    replay_start_size : int
        No update before the buffer holds this many experiences (>= ``minibatch_size``, <= capacity).
    minibatch_size : int
        Experiences per update.
    update_interval : int
        Steps between updates.
    target_update_interval : int
        Steps between target synchronizations; a multiple of ``update_interval``.
    clip_delta : bool
        Huber loss when True, else half the squared error.
    phi : callable
        Feature extractor applied to each observation.
    target_update_method : {'hard', 'soft'}
    soft_update_tau : float
        Step of a soft target update, in (0, 1].
    n_times_update : int
        Updates each time one is due.
    batch_accumulator : {'mean', 'sum'}
    episodic_update_len : int, optional
        With ``recurrent``: the longest sequence replayed (a random window of a longer episode);
        None replays whole episodes.
    logger : logging.Logger
    batch_states : callable
        ``batch_states(states, device, phi)`` builds the model input.
    recurrent : bool
        True for a recurrent ``q_function`` (:func:`kusari.rl.nn.is_recurrent`, e.g. a
        ``kusari.rl.nn.RecurrentSequential``), and only then: DRQN-style training as PFRL's. The
        agent keeps each environment's recurrent state while acting (zeros again when its episode
        ends); the replay buffer must be an ``EpisodicReplayBuffer`` and stores those states with
        the transitions; an update replays ``minibatch_size`` episodes (or windows of
        ``episodic_update_len`` steps), each from the state stored with its first transition,
        the target network from the state after it. One-step targets only.
    max_grad_norm : float, optional
        Gradients are rescaled to this global L2 norm when it is exceeded.

    Statistics: ``average_q`` (the last 1000 predicted Q-values), ``average_loss`` (the last 100
    losses), ``cumulative_steps``, ``n_updates`` and ``rlen`` (the buffer's length).
    """

    saved_attributes = ("model", "target_model", "optimizer", "t", "optim_t", "_cumulative_steps")
    replay_buffer_attributes = ("replay_buffer",)

    def __init__(self, q_function: kusari.Link, optimizer: kusari.Optimizer, replay_buffer, gamma: float,
                 explorer, gpu: int | None = None, replay_start_size: int = 50000,
                 minibatch_size: int = 32, update_interval: int = 1, target_update_interval: int = 10000,
                 clip_delta: bool = True, phi: Callable[[Any], Any] = lambda x: x,
                 target_update_method: str = "hard", soft_update_tau: float = 1e-2,
                 n_times_update: int = 1, batch_accumulator: str = "mean",
                 episodic_update_len: int | None = None, logger: Logger = _LOGGER,
                 batch_states: Callable = default_batch_states, recurrent: bool = False,
                 max_grad_norm: float | None = None):
        name = type(self).__name__
        self._check_recurrence(q_function, recurrent)
        self.replay_updater = ReplayUpdater(replay_buffer, self.update, minibatch_size, recurrent,
                                            n_times_update, replay_start_size, update_interval,
                                            episodic_update_len, who=name)
        self._check_arguments(q_function, optimizer, gamma, update_interval, target_update_interval,
                              target_update_method, soft_update_tau, batch_accumulator, max_grad_norm)
        self.device = place_model(gpu, q_function)
        self.model = q_function
        self.optimizer = optimizer
        self.replay_buffer = replay_buffer
        self.gamma = gamma
        self.explorer = explorer
        self.replay_start_size = replay_start_size
        self.minibatch_size = minibatch_size
        self.update_interval = update_interval
        self.target_update_interval = target_update_interval
        self.clip_delta = clip_delta
        self.phi = phi
        self.target_update_method = target_update_method
        self.soft_update_tau = soft_update_tau
        self.n_times_update = n_times_update
        self.batch_accumulator = batch_accumulator
        self.episodic_update_len = episodic_update_len
        self.logger = logger
        self.batch_states = batch_states
        self.recurrent = recurrent
        self.max_grad_norm = max_grad_norm

        self.t = 0
        self.optim_t = 0
        self._cumulative_steps = 0
        self.target_model = copy.deepcopy(q_function)
        for param in self.target_model.params():
            param.update_rule = None  # the target is never optimized; drop the copied optimizer state
        self.q_record = collections.deque(maxlen=Q_RECORD_LEN)
        self.loss_record = collections.deque(maxlen=LOSS_RECORD_LEN)
        self.batch_last_obs: list[Any] = []
        self.batch_last_action: list[Any] = []
        self._observation_check = ObservationCheck(name)
        self._action_spec: tuple | None = None
        # recurrent states of the environments (None: zeros), while training and in eval mode
        self.train_recurrent_states = None
        self.train_prev_recurrent_states = None
        self.test_recurrent_states = None
        self._acted_recurrent_state = None  # the state after the last act, kept once it succeeds

    def _check_recurrence(self, q_function, recurrent: bool) -> None:
        """Refuse a feed-forward q_function with recurrent=True and a recurrent one without it."""
        name = type(self).__name__
        check_recurrence(name, "q_function", q_function, recurrent, " (and an EpisodicReplayBuffer)")
        if recurrent and (type(self)._loss_and_gradients is not DQN._loss_and_gradients
                          or type(self).update is not DQN.update):
            raise NotImplementedError(f"{name}: recurrent=True is not supported by this agent's "
                                      "update (DQN's targets only)")

    def _check_arguments(self, q_function, optimizer, gamma, update_interval, target_update_interval,
                         target_update_method, soft_update_tau, batch_accumulator, max_grad_norm) -> None:
        """Check the arguments that the replay schedule (:class:`ReplayUpdater`) did not."""
        name = type(self).__name__
        if not isinstance(q_function, kusari.Link):
            raise TypeError(f"{name}: q_function must be a kusari.Link, got {type(q_function).__name__}")
        check_optimizer(name, "optimizer", optimizer, q_function, "q_function")
        require_positive_int(name, "target_update_interval", target_update_interval)
        require(name, "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        if target_update_interval % update_interval != 0:
            raise ValueError(f"{name}: target_update_interval ({target_update_interval}) must be a "
                             f"multiple of update_interval ({update_interval})")
        require(name, "target_update_method", target_update_method,
                target_update_method in ("hard", "soft"), "'hard' or 'soft'")
        require(name, "soft_update_tau", soft_update_tau, 0 < soft_update_tau <= 1, "in (0, 1]")
        require(name, "batch_accumulator", batch_accumulator, batch_accumulator in ("mean", "sum"),
                "'mean' or 'sum'")
        require(name, "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")

    @property
    def cumulative_steps(self) -> int:
        """Environment steps observed while training, over the agent's whole life."""
        return self._cumulative_steps

    # acting ----------------------------------------------------------------------------
    def batch_act(self, batch_obs: Sequence[Any]) -> Sequence[Any]:
        """One action per observation: explored while training, greedy in eval mode.

        Parameters
        ----------
        batch_obs : sequence of B observations

        Returns
        -------
        list of B actions (training), or the array of B greedy actions (eval mode).
        """
        self._observation_check.observations(batch_obs, "batch_act")
        batch_x = self.batch_states(batch_obs, self.device, self.phi)
        with refused_input(f"{type(self).__name__}.batch_act", self.model, batch_x):
            batch_av = self._action_values(batch_x)
        if not isinstance(batch_av, ActionValue):
            raise TypeError(f"{type(self).__name__}: the q_function must return an ActionValue "
                            f"(e.g. DiscreteActionValue), got {type(batch_av).__name__}")
        greedy = backend.to_cpu(batch_av.greedy_actions.array)
        if not self.training:
            self._observation_check.confirm()
            self._keep_recurrent_state()
            return greedy
        explorer, t = self.explorer, self.t
        if len(batch_obs) == 1:  # the action value needs no slicing (the common act() path)
            actions = [explorer.select_action(t, lambda: greedy[0], action_value=batch_av)]
        else:
            actions = [explorer.select_action(t, lambda i=i: greedy[i], action_value=batch_av[i:i + 1])
                       for i in range(len(batch_obs))]
        self._check_actions(actions, batch_av, greedy)
        self._observation_check.confirm()
        self._keep_recurrent_state()
        self.batch_last_obs = list(batch_obs)
        self.batch_last_action = actions
        return actions

    def _action_values(self, batch_x) -> ActionValue:
        """The model's action values of a batch of model inputs, to act on (no graph); a recurrent
        model steps from the environments' states (kept by :meth:`_keep_recurrent_state`)."""
        if not self.recurrent:
            return eval_forward(self.model, batch_x)
        state = self.train_recurrent_states if self.training else self.test_recurrent_states
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            batch_av, acted = one_step_forward(self.model, batch_x, state)
        self._acted_recurrent_state = detach_recurrent_state(acted)
        return batch_av

    def _keep_recurrent_state(self) -> None:
        """Make the state after an accepted act the environments' state."""
        if not self.recurrent:
            return
        if self.training:
            self.train_prev_recurrent_states = self.train_recurrent_states
            self.train_recurrent_states = self._acted_recurrent_state
        else:
            self.test_recurrent_states = self._acted_recurrent_state
        self._acted_recurrent_state = None

    def _check_actions(self, actions: list, batch_av: ActionValue, greedy) -> None:
        """Refuse explored actions that do not fit the Q-function's action space."""
        if isinstance(batch_av, DiscreteActionValue):
            n_actions = batch_av.n_actions
            for a in actions:
                if not (isinstance(a, (int, numpy.integer)) and 0 <= a < n_actions):
                    raise ValueError(
                        f"{type(self).__name__}: the q_function gives values of {n_actions} discrete "
                        f"actions, but the explorer chose {a!r}; a continuous action space needs a "
                        "Q-function returning continuous action values (e.g. FCQuadraticStateQFunction)")
            return
        for a in actions:
            if numpy.shape(a) != greedy.shape[1:]:
                raise ValueError(
                    f"{type(self).__name__}: the q_function's actions have shape "
                    f"{greedy.shape[1:]}, but the explorer chose {a!r} of shape {numpy.shape(a)}; "
                    "a discrete action space needs a Q-function over discrete actions")

    # observing -------------------------------------------------------------------------
    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Store each environment's transition and update when due (training only).

        Parameters
        ----------
        batch_obs, batch_reward, batch_done, batch_reset : sequences of B entries
            See :meth:`kusari.rl.agent.Agent.observe`.
        """
        if not self.training:
            if self.recurrent:
                self.test_recurrent_states = restart_ended_episodes(self.test_recurrent_states,
                                                                    batch_done, batch_reset)
            return
        check_step(f"{type(self).__name__}.batch_observe", batch_obs, batch_reward, batch_done,
                   batch_reset)
        self._observation_check.observations(batch_obs, "batch_observe")
        last_obs, last_action = self.batch_last_obs, self.batch_last_action
        for i, obs in enumerate(batch_obs):
            self.t += 1
            self._cumulative_steps += 1
            if self.t % self.target_update_interval == 0:
                self.sync_target_network()
            extra = {}
            if self.recurrent and i < len(last_obs) and last_obs[i] is not None:
                extra = {"recurrent_state": _host_state_at(self.train_prev_recurrent_states, i),
                         "next_recurrent_state": _host_state_at(self.train_recurrent_states, i)}
            store_transition(self.replay_buffer, last_obs, last_action, i, obs, batch_reward[i],
                             batch_done[i], batch_reset[i], **extra)
            self.replay_updater.update_if_necessary(self.t)
        if self.recurrent:
            self.train_prev_recurrent_states = None
            self.train_recurrent_states = restart_ended_episodes(self.train_recurrent_states,
                                                                 batch_done, batch_reset)

    def sync_target_network(self) -> None:
        """Make the target network follow the model (``target_update_method``)."""
        synchronize_parameters(self.model, self.target_model, self.target_update_method,
                               self.soft_update_tau)

    # learning --------------------------------------------------------------------------
    def update(self, experiences: list[list[dict[str, Any]]], errors_out: list | None = None) -> None:
        """One gradient step on a sampled minibatch.

        Parameters
        ----------
        experiences : list of list of dict
            As the replay buffer's ``sample`` returns them; a ``weight`` in the first transition
            (prioritized replay) weights the loss, and the TD errors go back to the buffer.
            With ``recurrent``: B (sub)episodes, as ``sample_episodes`` returns them, whose
            transitions all count in the loss.
        errors_out : list, optional
            Filled with the absolute TD errors (B of them; one per transition when recurrent).
        """
        if self.recurrent:
            exp_batch = batch_recurrent_experiences(experiences, self.device, self.phi, self.gamma,
                                                    batch_states=self.batch_states)
        else:
            exp_batch = batch_experiences(experiences, self.device, self.phi, self.gamma,
                                          batch_states=self.batch_states)
        weights = self._importance_weights(experiences)
        target = self._compute_target_values(exp_batch)
        self.optimizer.target.cleargrads()
        y, loss = self._loss_and_gradients(exp_batch, target, weights)
        y = backend.to_cpu(y.array)
        self.q_record.extend(y.tolist())
        self.loss_record.append(float(loss.array))
        if weights is not None or errors_out is not None:
            errors = numpy.abs(y - backend.to_cpu(kusari.as_array(target))).tolist()
            if errors_out is not None:
                errors_out[:] = errors
            if weights is not None:
                self.replay_buffer.update_errors(errors)
        self._apply_gradients()

    def _loss_and_gradients(self, exp_batch: dict[str, Any], target, weights
                            ) -> tuple[kusari.Variable, kusari.Variable]:
        """``Q(s, a)`` (B,) and the loss towards ``target`` (B,), whose gradients are added into the
        model's parameters (traced and replayed by static_graph, unless recurrent)."""
        run = _eager_loss_and_gradients if self.recurrent else _loss_and_gradients
        return run(self.model, exp_batch["state"], exp_batch["action"], target, weights,
                   self.clip_delta, self.batch_accumulator)

    def _importance_weights(self, experiences: list[list[dict[str, Any]]]):
        """The B importance weights of prioritized replay on the device, or None without them."""
        if "weight" not in experiences[0][0]:
            return None
        if not isinstance(self.replay_buffer, PrioritizedReplayBuffer):
            raise TypeError(f"{type(self).__name__}: weighted experiences come from a "
                            f"{type(self.replay_buffer).__name__}, not a PrioritizedReplayBuffer")
        return backend.to_device(
            self.device, numpy.asarray([e[0]["weight"] for e in experiences], numpy.float32))

    def _apply_gradients(self) -> None:
        """Clip the model's gradients to ``max_grad_norm`` (if set) and take the optimizer's step."""
        if self.max_grad_norm is not None:
            optimizer_hooks.GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self.optim_t += 1

    def _compute_target_values(self, exp_batch: dict[str, Any]):
        """The regression targets of ``Q(s, a)``, an array of shape (B,) (no gradient)."""
        return self._bellman_target(exp_batch, eval_forward(self.target_model, exp_batch["next_state"]))

    def _bellman_target(self, exp_batch: dict[str, Any], target_next: ActionValue):
        """``R + discount * (1 - terminal) * V(s')``, the n-step Q-learning target, shape (B,)."""
        next_value = self._next_state_value(exp_batch, target_next)
        return (exp_batch["reward"]
                + exp_batch["discount"] * (1.0 - exp_batch["is_state_terminal"]) * next_value)

    def _next_state_value(self, exp_batch: dict[str, Any], target_next: ActionValue):
        """``V(s')``: the target network's maximum, shape (B,)."""
        return target_next.max.array

    # statistics ------------------------------------------------------------------------
    def get_statistics(self) -> list[tuple[str, float]]:
        """``average_q``, ``average_loss`` (NaN before any update), ``cumulative_steps``,
        ``n_updates`` and ``rlen``, as floats."""
        return [
            ("average_q", mean_or_nan(self.q_record)),
            ("average_loss", mean_or_nan(self.loss_record)),
            ("cumulative_steps", float(self._cumulative_steps)),
            ("n_updates", float(self.optim_t)),
            ("rlen", float(len(self.replay_buffer))),
        ]


def _host_state_at(recurrent_state, i: int):
    """Environment ``i``'s entry of a recurrent state, as host arrays (to store in a replay buffer)."""
    return backend.to_cpu(get_recurrent_state_at(recurrent_state, i, detach=True))

