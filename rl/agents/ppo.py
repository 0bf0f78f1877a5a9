"""PPO: Proximal Policy Optimization (Schulman et al., 2017) with GAE(lambda), on PFRL's interface."""
import collections
import math
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import backend
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.agents._common import (
    ObservationCheck,
    check_step,
    check_optimizer,
    concat_batches,
    mean_or_nan,
    place_model,
    refused_input,
    require,
    require_positive_int,
    split_policy_and_value,
)
from kusari.rl.utils import batch_states as default_batch_states


def _take(x: Any, index: numpy.ndarray) -> Any:
    """Rows ``index`` of a batched model input."""
    if isinstance(x, tuple):
        return tuple(_take(v, index) for v in x)
    if isinstance(x, dict):
        return {k: _take(v, index) for k, v in x.items()}
    return x[index]


def minibatch_indices(n: int, minibatch_size: int, epochs: int) -> Iterator[numpy.ndarray]:
    """Index minibatches covering ``range(n)`` ``epochs`` times, from NumPy's global generator.

    Each minibatch takes the next ``minibatch_size`` indices of a stream of random permutations
    of ``range(n)`` (so a minibatch may span two epochs, as in PFRL); there are
    ``ceil(n * epochs / minibatch_size)`` of them.

    Returns
    -------
    Iterator of int64 arrays of shape (minibatch_size,).
    """
    stream = numpy.empty(0, numpy.int64)
    for _ in range(-(-n * epochs // minibatch_size)):
        while len(stream) < minibatch_size:
            stream = numpy.concatenate([numpy.random.permutation(n), stream])
        yield stream[-minibatch_size:]
        stream = stream[:-minibatch_size]


def generalized_advantages(rewards: numpy.ndarray, values: numpy.ndarray,
                           next_values: numpy.ndarray, terminal: numpy.ndarray,
                           ends: numpy.ndarray, gamma: float, lambd: float) -> numpy.ndarray:
    """GAE(lambda) advantages of a time-major rollout of several environments.

    Parameters
    ----------
    rewards, values, next_values : float arrays of shape (T, B)
        ``r_t``, ``V(s_t)`` and ``V(s_{t+1})`` (the value of the observation after the action).
    terminal : bool array (T, B)
        ``s_{t+1}`` is terminal: no bootstrap.
    ends : bool array (T, B)
        The episode ends after step t (terminated or truncated): advantages stop there.
    gamma, lambd : float

    Returns
    -------
    Array (T, B) in ``values``' dtype: ``A_t = delta_t + gamma * lambd * A_{t+1}`` within an
    episode, ``delta_t = r_t + gamma * V(s_{t+1}) [not terminal] - V(s_t)``; the last step of
    the rollout starts from ``A_T = 0``.
    """
    deltas = rewards + gamma * numpy.where(terminal, 0, next_values) - values
    carry = numpy.where(ends, 0, gamma * lambd).astype(values.dtype)
    advantages = numpy.empty_like(values)
    last = numpy.zeros_like(values[0])
    for t in range(len(values) - 1, -1, -1):
        last = deltas[t] + carry[t] * last
        advantages[t] = last
    return advantages


class _Rollout:
    """Transitions of the current PPO iteration, one row of B environments per step."""

    def __init__(self):
        self.inputs: list[Any] = []      # batched model inputs of s_t
        self.actions: list[Any] = []
        self.rewards: list[numpy.ndarray] = []
        self.terminal: list[numpy.ndarray] = []
        self.ends: list[numpy.ndarray] = []
        # s_{t+1} of episodes truncated mid-rollout: (flat positions t * B + i, model inputs)
        self.truncated: list[tuple[numpy.ndarray, Any]] = []

    def __len__(self) -> int:
        return len(self.inputs)


class PPO(AttributeSavingMixin, BatchAgent):
    """Proximal Policy Optimization with a clipped surrogate objective and GAE(lambda).

    The model maps a batch of observations to ``(action distribution, value)`` with the value of
    shape (batch_size, 1), e.g. ``kusari.rl.nn.Branched(policy, value_function)``. The agent
    collects ``update_interval`` transitions (over all environments of ``batch_act``), then
    trains for ``epochs`` passes over them in minibatches of ``minibatch_size``.

    Parameters
    ----------
    model : kusari.Link
    optimizer : kusari.Optimizer
        Already set up on ``model``; its hyperparameters (``lr``, ``alpha``) are read at each step.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    gamma, lambd : float
        Discount factor and GAE's lambda, in [0, 1].
    phi : callable
        Feature extractor applied to each observation.
    value_func_coef, entropy_coef : float
        Weights of the value loss and of the entropy bonus.
    update_interval, minibatch_size, epochs : int
    clip_eps : float
        Clipping range of the probability ratio; read at every update, so a step hook may
        schedule ``agent.clip_eps``.
    clip_eps_vf : float or None
        Clipping range of the value around its old prediction; None: no value clipping.
    standardize_advantages : bool
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input.
    recurrent, max_recurrent_sequence_len
        Recurrent models are not supported: ``recurrent=True`` raises NotImplementedError.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    max_grad_norm : float or None
        Clip the gradient's global L2 norm to this.
    value_stats_window, entropy_stats_window, value_loss_stats_window, policy_loss_stats_window : int
        Window sizes of the statistics.

    Statistics: ``average_value`` and ``average_entropy`` over the states of recent iterations
    (recorded when an iteration's data is processed), ``average_value_loss`` and
    ``average_policy_loss`` over recent minibatches, ``n_updates`` (minibatch updates so far)
    and ``explained_variance`` of the last iteration.
    """

    saved_attributes = ("model", "optimizer", "n_updates")

    def __init__(self, model: kusari.Link, optimizer: kusari.Optimizer, gpu: int | None = None,
                 gamma: float = 0.99, lambd: float = 0.95, phi: Callable = lambda x: x,
                 value_func_coef: float = 1.0, entropy_coef: float = 0.01,
                 update_interval: int = 2048, minibatch_size: int = 64, epochs: int = 10,
                 clip_eps: float = 0.2, clip_eps_vf: float | None = None,
                 standardize_advantages: bool = True, batch_states: Callable = default_batch_states,
                 recurrent: bool = False, max_recurrent_sequence_len: int | None = None,
                 act_deterministically: bool = False, max_grad_norm: float | None = None,
                 value_stats_window: int = 1000, entropy_stats_window: int = 1000,
                 value_loss_stats_window: int = 100, policy_loss_stats_window: int = 100):
        if recurrent:
            raise NotImplementedError("PPO: recurrent=True is not supported (kusari.rl has no "
                                      "recurrent models yet)")
        require("PPO", "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        require("PPO", "lambd", lambd, 0 <= lambd <= 1, "in [0, 1]")
        for name, value in (("update_interval", update_interval),
                            ("minibatch_size", minibatch_size), ("epochs", epochs)):
            require_positive_int("PPO", name, value)
        require("PPO", "clip_eps", clip_eps, clip_eps > 0, "> 0")
        require("PPO", "clip_eps_vf", clip_eps_vf, clip_eps_vf is None or clip_eps_vf > 0,
                "None or > 0")
        require("PPO", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("PPO", "optimizer", optimizer, model, "model")
        self.model = model
        self.optimizer = optimizer
        self.device = place_model(gpu, model)
        self.gamma = gamma
        self.lambd = lambd
        self.phi = phi
        self.value_func_coef = value_func_coef
        self.entropy_coef = entropy_coef
        self.update_interval = update_interval
        self.minibatch_size = minibatch_size
        self.epochs = epochs
        self.clip_eps = clip_eps
        self.clip_eps_vf = clip_eps_vf
        self.standardize_advantages = standardize_advantages
        self.batch_states = batch_states
        self.recurrent = recurrent
        self.max_recurrent_sequence_len = max_recurrent_sequence_len
        self.act_deterministically = act_deterministically
        self.max_grad_norm = max_grad_norm

        self.value_record = collections.deque(maxlen=value_stats_window)
        self.entropy_record = collections.deque(maxlen=entropy_stats_window)
        self.value_loss_record = collections.deque(maxlen=value_loss_stats_window)
        self.policy_loss_record = collections.deque(maxlen=policy_loss_stats_window)
        self.explained_variance = math.nan
        self.n_updates = 0

        self._observation_check = ObservationCheck("PPO")
        self._rollout = _Rollout()
        self._n_envs: int | None = None
        self._pending: tuple[Any, Any] | None = None  # (model input, actions) awaiting observe

    # -- acting ---------------------------------------------------------------------------------

    def _model_input(self, batch_obs: Sequence[Any]) -> Any:
        x = self.batch_states(batch_obs, self.device, self.phi)
        self._observation_check.features(x)
        return x

    def _evaluate(self, x: Any, batch_size: int):
        """The model's (distribution, value) without graph, with the network in test mode."""
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input("PPO", self.model, x):
            return split_policy_and_value("PPO", self.model(x), batch_size)

    def batch_act(self, batch_obs: Sequence[Any]) -> numpy.ndarray:
        """Actions for a batch of observations: sampled while training; in eval mode the most
        probable ones if ``act_deterministically``.

        Returns
        -------
        numpy.ndarray (batch_size,) + action shape (int32 for discrete policies).
        """
        if self.training and self._n_envs not in (None, len(batch_obs)):
            raise ValueError(f"PPO.batch_act: trained with {self._n_envs} environments, "
                             f"got {len(batch_obs)} observations")
        x = self._model_input(batch_obs)
        distrib, _ = self._evaluate(x, len(batch_obs))
        self._observation_check.confirm()
        if self.training:
            self._n_envs = len(batch_obs)
            action = distrib.sample().array
            self._pending = (x, action)
        elif self.act_deterministically:
            action = distrib.most_probable.array
        else:
            action = distrib.sample().array
        # a copy, so that the caller changing it cannot change the stored transition
        return numpy.array(backend.to_cpu(action))

    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Record one step of every environment and update when ``update_interval`` is reached.

        ``done`` (terminated) stops bootstrapping; ``reset`` (truncated) ends the episode but
        bootstraps from the value of ``batch_obs``. Nothing happens in eval mode, nor for an
        observation that no ``batch_act`` preceded.
        """
        if not self.training or self._pending is None:
            return
        # everything is checked before the first change, so a refused step is not half recorded
        check_step("PPO.batch_observe", batch_obs, batch_reward, batch_done, batch_reset,
                   self._n_envs)
        terminal = numpy.asarray(batch_done, dtype=bool)
        ends = terminal | numpy.asarray(batch_reset, dtype=bool)
        rewards = numpy.asarray(batch_reward, dtype=numpy.float32)
        truncated = numpy.flatnonzero(ends & ~terminal)
        rollout = self._rollout
        update = (len(rollout) + 1) * self._n_envs >= self.update_interval
        next_x = self._model_input(batch_obs) if update or len(truncated) else None
        x, action = self._pending
        self._pending = None
        rollout.inputs.append(x)
        rollout.actions.append(action)
        rollout.rewards.append(rewards)
        rollout.terminal.append(terminal)
        rollout.ends.append(ends)
        if update:
            self._update(next_x)
        elif len(truncated):
            positions = (len(rollout) - 1) * self._n_envs + truncated
            rollout.truncated.append((positions, _take(next_x, truncated)))

    # -- learning -------------------------------------------------------------------------------

    def _update(self, last_next_x: Any) -> None:
        """Train on the collected rollout; ``last_next_x`` is the model input of the observations
        after its last step."""
        n = len(self._rollout) * self._n_envs
        x, actions, log_probs, values, advantages, value_targets = self._dataset(last_next_x)
        if self.standardize_advantages:
            advantages = ((advantages - advantages.mean()) / (advantages.std() + 1e-8)).astype(
                values.dtype, copy=False)
        self._rollout = _Rollout()
        xp = numpy if self.device is None else self.device.xp
        advantages, log_probs, values, value_targets = (
            xp.asarray(a) for a in (advantages, log_probs, values, value_targets))
        for index in minibatch_indices(n, self.minibatch_size, self.epochs):
            if xp is not numpy:
                index = xp.asarray(index)
            self._update_minibatch(_take(x, index), actions[index], advantages[index],
                                   log_probs[index], values[index, None],
                                   value_targets[index, None])

    def _dataset(self, last_next_x: Any) -> tuple[Any, Any, numpy.ndarray, numpy.ndarray,
                                                   numpy.ndarray, numpy.ndarray]:
        """``(inputs, actions, log-probabilities, values, advantages, value targets)`` of the
        rollout, flattened time-major, from one forward pass; records the statistics."""
        rollout, n_envs = self._rollout, self._n_envs
        steps = len(rollout)
        x = concat_batches(rollout.inputs)
        actions = concat_batches(rollout.actions)
        bootstrap_x = concat_batches([p[1] for p in rollout.truncated] + [last_next_x])
        n_truncated = sum(len(p[0]) for p in rollout.truncated)
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            distrib, values = split_policy_and_value("PPO", self.model(x), steps * n_envs)
            log_probs = backend.to_cpu(distrib.log_prob(actions).array)
            entropy = backend.to_cpu(distrib.entropy.array)
            _, bootstrap_values = split_policy_and_value("PPO", self.model(bootstrap_x),
                                                         n_truncated + n_envs)
        values = backend.to_cpu(values.array).ravel()
        bootstrap_values = backend.to_cpu(bootstrap_values.array).ravel()

        next_values = numpy.empty_like(values)
        next_values[:-n_envs] = values[n_envs:]
        next_values[-n_envs:] = bootstrap_values[n_truncated:]
        if rollout.truncated:
            next_values[numpy.concatenate([p[0] for p in rollout.truncated])] = (
                bootstrap_values[:n_truncated])
        shape = (steps, n_envs)
        advantages = generalized_advantages(
            numpy.stack(rollout.rewards), values.reshape(shape), next_values.reshape(shape),
            numpy.stack(rollout.terminal), numpy.stack(rollout.ends), self.gamma,
            self.lambd).ravel()
        value_targets = advantages + values

        self.value_record.extend(values.tolist())
        self.entropy_record.extend(entropy.tolist())
        variance = float(numpy.var(value_targets))
        self.explained_variance = (
            math.nan if variance == 0
            else 1.0 - float(numpy.var(value_targets - values)) / variance)
        return x, actions, log_probs, values, advantages, value_targets

    def _update_minibatch(self, x, actions, advantages, log_probs_old, values_old,
                          value_targets) -> None:
        distrib, values = split_policy_and_value("PPO", self.model(x), len(actions))
        loss = self._lossfun(distrib.entropy, values, distrib.log_prob(actions), values_old,
                             log_probs_old, advantages, value_targets)
        self.model.cleargrads()
        loss.backward()
        if self.max_grad_norm is not None:
            GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self.n_updates += 1

    def _lossfun(self, entropy, vs_pred, log_probs, vs_pred_old, log_probs_old, advs,
                 vs_teacher) -> kusari.Variable:
        """The clipped surrogate loss plus weighted value loss minus weighted entropy.

        Parameters
        ----------
        entropy, log_probs : Variables (n,); vs_pred : Variable (n, 1)
        vs_pred_old, vs_teacher : arrays (n, 1); log_probs_old, advs : arrays (n,)
        """
        ratio = F.exp(log_probs - log_probs_old)
        loss_policy = -F.mean(F.minimum(
            ratio * advs, F.clip(ratio, 1 - self.clip_eps, 1 + self.clip_eps) * advs))
        if self.clip_eps_vf is None:
            loss_value = F.mean_squared_error(vs_pred, vs_teacher)
        else:
            clipped = F.minimum(F.maximum(vs_pred, vs_pred_old - self.clip_eps_vf),
                                vs_pred_old + self.clip_eps_vf)
            loss_value = F.mean(F.maximum(F.squared_error(vs_pred, vs_teacher),
                                          F.squared_error(clipped, vs_teacher)))
        self.value_loss_record.append(float(loss_value.array))
        self.policy_loss_record.append(float(loss_policy.array))
        return (loss_policy + self.value_func_coef * loss_value
                - self.entropy_coef * F.mean(entropy))

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [
            ("average_value", mean_or_nan(self.value_record)),
            ("average_entropy", mean_or_nan(self.entropy_record)),
            ("average_value_loss", mean_or_nan(self.value_loss_record)),
            ("average_policy_loss", mean_or_nan(self.policy_loss_record)),
            ("n_updates", self.n_updates),
            ("explained_variance", self.explained_variance),
        ]
