"""What the on-policy agents (PPO, TRPO) share: rollout bookkeeping, batch act/observe, GAE, minibatches."""
import collections
import math
from collections.abc import Iterator, Sequence
from typing import Any

import kusari
import numpy
from kusari import backend
from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.agents._common import (
    ObservationCheck,
    check_step,
    concat_batches,
    refused_input,
    split_policy_and_value,
)


def take_rows(x: Any, index: Any) -> Any:
    """Rows ``index`` of a batched model input (an array, or a tuple/dict of them)."""
    if isinstance(x, tuple):
        return tuple(take_rows(v, index) for v in x)
    if isinstance(x, dict):
        return {k: take_rows(v, index) for k, v in x.items()}
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


def check_obs_normalizer(who: str, obs_normalizer: Any) -> None:
    """Refuse an ``obs_normalizer`` that is neither None nor a Link that learns with ``experience``
    (an ``EmpiricalNormalization``), in ``who``'s name."""
    if obs_normalizer is not None and not (
            isinstance(obs_normalizer, kusari.Link)
            and callable(getattr(obs_normalizer, "experience", None))):
        raise TypeError(f"{who}: obs_normalizer must be None or an EmpiricalNormalization, got "
                        f"{type(obs_normalizer).__name__}")


def standardize(advantages: numpy.ndarray) -> numpy.ndarray:
    """``(a - mean) / (std + 1e-8)`` with the population std, in ``advantages``' dtype (PFRL's)."""
    return ((advantages - advantages.mean()) / (advantages.std() + 1e-8)).astype(
        advantages.dtype, copy=False)


class Rollout:
    """Transitions of the current iteration, one row of B environments per step."""

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


class OnPolicyAgent(AttributeSavingMixin, BatchAgent):
    """Base of the agents that collect ``update_interval`` transitions with the current policy, then
    learn from them once (PPO, TRPO).

    A subclass sets ``model`` (observations -> ``(action distribution, value (batch_size, 1))``),
    ``device``, ``batch_states``, ``phi``, ``gamma``, ``lambd``, ``update_interval``,
    ``standardize_advantages`` and ``act_deterministically``, calls :meth:`_init_rollouts` and
    implements ``_update(last_next_x)``, which usually starts with :meth:`_training_data`. A subclass may set ``obs_normalizer`` (checked by
    :func:`check_obs_normalizer`): the observations the model sees while acting and in
    :meth:`_dataset` then pass through it without updating it, and it learns only in
    :meth:`_learn_observations`, as PFRL's PPO and TRPO do.
    """

    obs_normalizer = None

    @property
    def _first_network(self) -> kusari.Link:
        """The network whose first layer must fit the observations (named in the error)."""
        return self.model

    def _init_rollouts(self, value_stats_window: int, entropy_stats_window: int) -> None:
        self.value_record = collections.deque(maxlen=value_stats_window)
        self.entropy_record = collections.deque(maxlen=entropy_stats_window)
        self.explained_variance = math.nan
        self._observation_check = ObservationCheck(type(self).__name__)
        self._rollout = Rollout()
        self._n_envs: int | None = None
        self._pending: tuple[Any, Any] | None = None  # (model input, actions) awaiting observe

    # -- acting ---------------------------------------------------------------------------------

    def _model_input(self, batch_obs: Sequence[Any]) -> Any:
        x = self.batch_states(batch_obs, self.device, self.phi)
        self._observation_check.features(x)
        return x

    def _normalized(self, x: Any) -> Any:
        """The model input ``x`` through ``obs_normalizer`` (not updated), if there is one."""
        return x if self.obs_normalizer is None else self.obs_normalizer(x, update=False)

    def _policy_and_value(self, x: Any, batch_size: int) -> tuple[Any, kusari.Variable]:
        """The model's ``(distribution, value)`` for the model input ``x`` of ``batch_size`` rows."""
        return split_policy_and_value(type(self).__name__, self.model(self._normalized(x)),
                                      batch_size)

    def _evaluate(self, x: Any, batch_size: int):
        """The model's (distribution, value) without graph, with the network in test mode."""
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input(type(self).__name__, self._first_network, x):
            return self._policy_and_value(x, batch_size)

    def batch_act(self, batch_obs: Sequence[Any]) -> numpy.ndarray:
        """Actions for a batch of observations: sampled while training; in eval mode the most
        probable ones if ``act_deterministically``.

        Returns
        -------
        numpy.ndarray (batch_size,) + action shape (int32 for discrete policies).
        """
        if self.training and self._n_envs not in (None, len(batch_obs)):
            raise ValueError(f"{type(self).__name__}.batch_act: trained with {self._n_envs} "
                             f"environments, got {len(batch_obs)} observations")
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
        check_step(f"{type(self).__name__}.batch_observe", batch_obs, batch_reward, batch_done,
                   batch_reset, self._n_envs)
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
            rollout.truncated.append((positions, take_rows(next_x, truncated)))

    # -- learning -------------------------------------------------------------------------------

    def _update(self, last_next_x: Any) -> None:
        """Learn from the collected rollout; ``last_next_x`` is the model input of the observations
        after its last step."""
        raise NotImplementedError

    def _learn_observations(self, x: Any) -> Any:
        """``obs_normalizer`` (if any) learns from the update's model input ``x``, which it then
        normalizes: PFRL's order, after the dataset's values and log-probabilities and before the
        networks learn, so that these see the new statistics."""
        if self.obs_normalizer is not None:
            self.obs_normalizer.experience(x)
        return self._normalized(x)

    def _training_data(self, last_next_x: Any) -> tuple[Any, Any, Any, Any, Any, Any]:
        """:meth:`_dataset`'s ``(inputs, actions, log-probabilities, values, advantages, value
        targets)`` ready to learn from: the inputs through :meth:`_learn_observations`, the
        advantages standardized if ``standardize_advantages``, the four arrays (n,) on the agent's
        device."""
        x, actions, log_probs, values, advantages, value_targets = self._dataset(last_next_x)
        x = self._learn_observations(x)
        if self.standardize_advantages:
            advantages = standardize(advantages)
        xp = self._xp
        return (x, actions, *(xp.asarray(a) for a in (log_probs, values, advantages, value_targets)))

    def _on_device(self, indices: Iterator[numpy.ndarray]) -> Iterator[Any]:
        """Each index array of ``indices`` on the agent's device (to pick minibatch rows there)."""
        xp = self._xp
        for index in indices:
            yield index if xp is numpy else xp.asarray(index)

    @property
    def _xp(self):
        """The array module of the agent's device."""
        return numpy if self.device is None else self.device.xp

    def _rollout_outputs(self, x: Any, actions: Any, bootstrap_x: Any, n_bootstrap: int
                         ) -> tuple[numpy.ndarray, ...]:
        """Host arrays of the rollout's log-probabilities, entropies and values (T * B,), and the
        values (n_bootstrap,) of ``bootstrap_x`` (next observations of truncated episodes, then of
        the last step), in test mode without graph (a recurrent agent overrides this)."""
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            distrib, values = self._policy_and_value(x, len(actions))
            log_probs = backend.to_cpu(distrib.log_prob(actions).array)
            entropy = backend.to_cpu(distrib.entropy.array)
            _, bootstrap_values = self._policy_and_value(bootstrap_x, n_bootstrap)
        return (log_probs, entropy, backend.to_cpu(values.array).ravel(),
                backend.to_cpu(bootstrap_values.array).ravel())

    def _dataset(self, last_next_x: Any) -> tuple[Any, Any, numpy.ndarray, numpy.ndarray,
                                                   numpy.ndarray, numpy.ndarray]:
        """``(inputs, actions, log-probabilities, values, advantages, value targets)`` of the
        rollout, flattened time-major (row ``t * B + i``), from one forward pass; records the
        statistics (values, entropies, explained variance) and starts a new rollout."""
        rollout, n_envs = self._rollout, self._n_envs
        steps = len(rollout)
        x = concat_batches(rollout.inputs)
        actions = concat_batches(rollout.actions)
        bootstrap_x = concat_batches([p[1] for p in rollout.truncated] + [last_next_x])
        n_truncated = sum(len(p[0]) for p in rollout.truncated)
        log_probs, entropy, values, bootstrap_values = self._rollout_outputs(
            x, actions, bootstrap_x, n_truncated + n_envs)

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
        self._rollout = Rollout()
        return x, actions, log_probs, values, advantages, value_targets
