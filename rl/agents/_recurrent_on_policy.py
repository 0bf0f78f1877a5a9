"""Recurrent models in the on-policy agents (PFRL's recurrent PPO): states while acting, sequences
in updates."""
from collections.abc import Iterator, Sequence
from typing import Any

import kusari
import numpy
from kusari import backend
from kusari.rl.agents._common import check_step, refused_input, split_policy_and_value
from kusari.rl.agents._on_policy import minibatch_indices, take_rows
from kusari.rl.utils.recurrent import (
    RecurrentBatch,
    concatenate_recurrent_states,
    detach_recurrent_state,
    forward,
    get_recurrent_state_at,
    one_step_forward,
    restart_ended_episodes,
)


def split_rollout(ends: numpy.ndarray, max_len: int | None) -> list[tuple[int, int, int]]:
    """The sequences of a time-major rollout: each environment's steps cut after an episode's end
    and every ``max_len`` steps.

    Parameters
    ----------
    ends : bool array (T, B)
        The episode ends after step t of environment b.
    max_len : int or None

    Returns
    -------
    list of ``(env, first step, length)``, environment after environment.
    """
    steps, n_envs = ends.shape
    sequences = []
    for env in range(n_envs):
        start = 0
        for t in range(steps):
            length = t + 1 - start
            if ends[t, env] or length == max_len or t == steps - 1:
                sequences.append((env, start, length))
                start = t + 1
    return sequences


def sequence_minibatches(sequences: list[tuple[int, int, int]], size: int, epochs: int
                         ) -> Iterator[list[tuple[int, int, int]]]:
    """Sets of sequences of ``size`` steps in all, from NumPy's global generator.

    Each epoch shuffles the sequences and deals them out in order; a sequence that does not fit in
    a minibatch is split, its rest opening the next one. The last minibatch of an epoch may hold
    fewer steps (PFRL drops it).
    """
    for _ in range(epochs):
        queue = [sequences[k] for k in numpy.random.permutation(len(sequences))][::-1]
        while queue:
            batch, count = [], 0
            while queue and count < size:
                env, start, length = queue.pop()
                take = min(length, size - count)
                batch.append((env, start, take))
                count += take
                if take < length:
                    queue.append((env, start + take, length - take))
            yield batch


class RecurrentRollouts:
    """Mixed in before :class:`~kusari.rl.agents._on_policy.OnPolicyAgent`; active when the agent's
    ``recurrent`` is True (PFRL's recurrent PPO).

    While acting, each environment's recurrent state steps with the model (training and eval mode
    apart) and restarts from zeros when its episode ends; the state before each step is kept with
    the rollout. An update runs the model over the rollout's sequences (each environment's steps,
    cut at episode ends and every ``max_recurrent_sequence_len`` steps), each from the state it
    had when acting, and trains on minibatches of such sequences (:func:`sequence_minibatches`).
    """

    def _init_recurrent_rollouts(self) -> None:
        self.train_recurrent_states = None
        self.test_recurrent_states = None
        self._acted_state = None        # the states before the last act (training)
        self._step_states: list = []    # the states before each step of the rollout
        self._truncated_states: list = []  # after the step, of the rollout's truncated episodes
        self._update_step_states: list = []  # _step_states of the rollout being learnt from
        self._sequences: list = []
        self._minibatch: list = []      # (env, first step, length) of the current minibatch

    # -- acting ---------------------------------------------------------------------------------

    def _evaluate(self, x: Any, batch_size: int):
        if not self.recurrent:
            return super()._evaluate(x, batch_size)
        state = self.train_recurrent_states if self.training else self.test_recurrent_states
        who = type(self).__name__
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input(who, self.model, x):
            out, new_state = one_step_forward(self.model, self._normalized(x), state)
        result = split_policy_and_value(who, out, batch_size)
        if self.training:
            self._acted_state = state
            self.train_recurrent_states = detach_recurrent_state(new_state)
        else:
            self.test_recurrent_states = detach_recurrent_state(new_state)
        return result

    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        if not self.recurrent:
            return super().batch_observe(batch_obs, batch_reward, batch_done, batch_reset)
        if not self.training:
            self.test_recurrent_states = restart_ended_episodes(self.test_recurrent_states,
                                                                batch_done, batch_reset)
            return
        if self._pending is None:
            return
        check_step(f"{type(self).__name__}.batch_observe", batch_obs, batch_reward, batch_done,
                   batch_reset, self._n_envs)
        truncated = numpy.flatnonzero(numpy.logical_and(
            numpy.asarray(batch_reset, dtype=bool), ~numpy.asarray(batch_done, dtype=bool)))
        self._step_states.append(self._acted_state)
        n_truncated = len(self._rollout.truncated)
        super().batch_observe(batch_obs, batch_reward, batch_done, batch_reset)  # may update
        if len(self._rollout.truncated) > n_truncated:  # kept for a later bootstrap
            self._truncated_states.append(
                get_recurrent_state_at(self.train_recurrent_states, truncated, detach=True))
        self.train_recurrent_states = restart_ended_episodes(self.train_recurrent_states,
                                                             batch_done, batch_reset)

    # -- learning -------------------------------------------------------------------------------

    def _rollout_outputs(self, x: Any, actions: Any, bootstrap_x: Any, n_bootstrap: int
                         ) -> tuple[numpy.ndarray, ...]:
        if not self.recurrent:
            return super()._rollout_outputs(x, actions, bootstrap_x, n_bootstrap)
        who = type(self).__name__
        self._sequences = split_rollout(numpy.stack(self._rollout.ends),
                                        self.max_recurrent_sequence_len)
        self._update_step_states, self._step_states = self._step_states, []
        order = self._rows(self._sequences)
        # the bootstrap rows: truncated episodes' next observations, then every environment's last
        bootstrap_state = concatenate_recurrent_states(
            [get_recurrent_state_at(state, j, detach=True)
             for state in self._truncated_states + [self.train_recurrent_states]
             for j in range(_batch_size(state))])
        self._truncated_states = []
        with kusari.no_backprop_mode(), kusari.using_config("train", False):
            distrib, values = split_policy_and_value(
                who, forward(self.model, self._sequence_batch(self._normalized(x), order,
                                                              self._sequences)), len(order))
            log_probs = backend.to_cpu(distrib.log_prob(actions[_to(actions, order)]).array)
            entropy = backend.to_cpu(distrib.entropy.array)
            out, _ = one_step_forward(self.model, self._normalized(bootstrap_x), bootstrap_state)
            _, bootstrap_values = split_policy_and_value(who, out, n_bootstrap)
        # from sequence order back to the rollout's time-major rows
        results = []
        for array in (log_probs, entropy, backend.to_cpu(values.array).ravel()):
            rows = numpy.empty_like(array)
            rows[order] = array
            results.append(rows)
        return tuple(results) + (backend.to_cpu(bootstrap_values.array).ravel(),)

    def _rows(self, sequences: list[tuple[int, int, int]]) -> numpy.ndarray:
        """The time-major rows (``t * B + env``) of ``sequences``' steps, sequence after sequence."""
        if not sequences:
            return numpy.empty(0, numpy.int64)
        return numpy.concatenate([(start + numpy.arange(length)) * self._n_envs + env
                                  for env, start, length in sequences])

    def _sequence_batch(self, x_rows: Any, index: Any, sequences: list[tuple[int, int, int]]
                        ) -> RecurrentBatch:
        """The rows ``index`` of the model input ``x_rows`` cut into ``sequences``, with the states
        their first steps had when acting."""
        picked = take_rows(x_rows, _to(x_rows, index))
        bounds = numpy.cumsum([0] + [length for _, _, length in sequences])
        state = concatenate_recurrent_states(
            [get_recurrent_state_at(self._update_step_states[start], env, detach=True)
             for env, start, _ in sequences])
        return RecurrentBatch([picked[a:b] for a, b in zip(bounds[:-1], bounds[1:])], state)

    def _minibatches(self, n: int) -> Iterator[numpy.ndarray]:
        """Row indices of each minibatch of an update over ``n`` rows (whole sequences' rows, in
        order, when recurrent)."""
        if not self.recurrent:
            yield from minibatch_indices(n, self.minibatch_size, self.epochs)
            return
        for batch in sequence_minibatches(self._sequences, self.minibatch_size, self.epochs):
            self._minibatch = batch  # for _minibatch_input
            yield self._rows(batch)

    def _minibatch_input(self, x: Any, index: Any) -> Any:
        """The model input of the minibatch ``index`` (a ``RecurrentBatch`` when recurrent)."""
        if not self.recurrent:
            return take_rows(x, index)
        return self._sequence_batch(x, index, self._minibatch)


def _batch_size(state) -> int:
    """The number of entries of a batched recurrent state (axis 1 of its leaves)."""
    while isinstance(state, tuple):
        state = state[0]
    return state.shape[1]


def _to(x: Any, index: numpy.ndarray) -> Any:
    """``index`` on the device of the array ``x``."""
    xp = backend.get_array_module(x)
    return index if xp is numpy else xp.asarray(index)

