"""Batching replayed (sub)episodes for a recurrent update (PFRL's ``batch_recurrent_experiences``)."""
from collections.abc import Callable
from typing import Any

import numpy
from kusari.backend import to_device
from kusari.rl.utils.batch_states import batch_states as default_batch_states
from kusari.rl.utils.recurrent import (
    RecurrentBatch,
    concatenate_recurrent_states,
    recurrent_state_to_device,
)


def _to(device, array: numpy.ndarray):
    return array if device is None else to_device(device, array)


def batch_recurrent_experiences(episodes: list[list[dict]], device, phi: Callable[[Any], Any],
                                gamma: float, batch_states: Callable = default_batch_states
                                ) -> dict[str, Any]:
    """Batch B (sub)episodes, as ``EpisodicReplayBuffer.sample_episodes`` returns them.

    Each transition may carry ``recurrent_state`` (the agent's state before it acted on ``state``)
    and ``next_recurrent_state`` (after): single-entry states, as
    ``get_recurrent_state_at(state, i, detach=True)`` gives them. An episode's first transition
    gives the state its sequence starts from (zeros where it has none).

    Parameters
    ----------
    episodes : list of B non-empty lists of transition dicts
    device : where the arrays go (None: where ``batch_states`` puts them)
    phi : callable applied to each observation
    gamma : float
    batch_states : callable ``(states, device, phi)`` -> model input of one sequence

    Returns
    -------
    dict
        ``state`` and ``next_state``: :class:`~kusari.rl.utils.recurrent.RecurrentBatch` of the B
        sequences (T_b, ...) and the first transitions' (``next_``)``recurrent_state``; with
        N = sum_b T_b, the transitions in sequence order: ``action`` (N,) + action shape, float32
        (N,) ``reward``, ``is_state_terminal`` and ``discount`` (gamma), and ``next_action`` when
        every transition has one.
    """
    if not episodes or any(len(episode) == 0 for episode in episodes):
        raise ValueError(f"batch_recurrent_experiences: episodes must be a non-empty list of "
                         f"non-empty episodes, got lengths {[len(e) for e in episodes]}")
    transitions = [t for episode in episodes for t in episode]

    def sequences(key: str, state_key: str) -> RecurrentBatch:
        state = concatenate_recurrent_states([episode[0].get(state_key) for episode in episodes])
        return RecurrentBatch([batch_states([t[key] for t in episode], device, phi)
                               for episode in episodes], recurrent_state_to_device(device, state))

    def float32(values: list):
        return _to(device, numpy.asarray(values, dtype=numpy.float32))

    batch = {
        "state": sequences("state", "recurrent_state"),
        "action": _to(device, numpy.asarray([t["action"] for t in transitions])),
        "reward": float32([t["reward"] for t in transitions]),
        "next_state": sequences("next_state", "next_recurrent_state"),
        "is_state_terminal": float32([t["is_state_terminal"] for t in transitions]),
        "discount": float32([gamma] * len(transitions)),
    }
    if all(t.get("next_action") is not None for t in transitions):
        batch["next_action"] = _to(device, numpy.asarray([t["next_action"] for t in transitions]))
    return batch
