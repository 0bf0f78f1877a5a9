"""Helpers for recurrent links (PFRL's ``pfrl.utils.recurrent``): stepping, packing, and states.

States are trees of tuples whose leaves (arrays or Variables) hold the batch on axis 1, as
described in :mod:`kusari.rl.nn.recurrent`; None stands for zeros wherever a state is taken.
"""
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import kusari
import kusari.functions as F
import numpy
from kusari import backend
from kusari.rl.nn.recurrent import RecurrentState, call_packed, is_recurrent, pack_sequences


def _map_state(fn: Callable[[Any], Any], state: RecurrentState) -> RecurrentState:
    """``fn`` applied to every leaf of ``state`` (None stays None)."""
    if state is None:
        return None
    if isinstance(state, tuple):
        return tuple(_map_state(fn, s) for s in state)
    return fn(state)


def _check_recurrent(who: str, link: Any) -> None:
    if not is_recurrent(link):
        raise TypeError(f"{who}: {type(link).__name__} is not recurrent; expected a "
                        "kusari.rl.nn.Recurrent (e.g. RecurrentSequential) or an NStep* link")


def check_recurrence(who: str, name: str, link: Any, recurrent: bool, hint: str = "") -> None:
    """Refuse a feed-forward ``link`` with ``recurrent=True`` and a recurrent one without it.

    Parameters
    ----------
    who : the agent's name; name : the link's argument name
    hint : what else ``recurrent=True`` needs, added to the second message
    """
    if recurrent and not is_recurrent(link):
        raise ValueError(f"{who}: recurrent=True needs a recurrent {name} (a "
                         "kusari.rl.nn.RecurrentSequential or another kusari.rl.nn.Recurrent), got "
                         f"the feed-forward {type(link).__name__}")
    if not recurrent and is_recurrent(link):
        raise ValueError(f"{who}: the {name} {type(link).__name__} is recurrent; pass "
                         f"recurrent=True{hint} to train it")


def one_step_forward(rnn: Any, batch_input, recurrent_state: RecurrentState
                     ) -> tuple[Any, RecurrentState]:
    """One step of B sequences at once.

    Parameters
    ----------
    rnn : recurrent link
    batch_input : array or Variable (B, ...)
        Row b is the next input of sequence b.
    recurrent_state : state of the B sequences, or None

    Returns
    -------
    (y, new_state): y the output of each row (B rows), the state after the step.
    """
    _check_recurrent("one_step_forward", rnn)
    return call_packed(rnn, batch_input, [1] * len(batch_input), recurrent_state)


def pack_and_forward(rnn: Any, sequences: list, recurrent_state: RecurrentState
                     ) -> tuple[Any, RecurrentState]:
    """Every step of B sequences at once.

    Parameters
    ----------
    rnn : recurrent link
    sequences : list of B arrays or Variables (T_b, ...)
    recurrent_state : state before each sequence's first step, or None

    Returns
    -------
    (y, new_state): y the outputs of all steps, sequence after sequence (``sum_b T_b`` rows, as
    PFRL's unpacked output but in sequence order rather than time order); the state after each
    sequence's last step.
    """
    _check_recurrent("pack_and_forward", rnn)
    x, lengths = pack_sequences("pack_and_forward", sequences)
    return call_packed(rnn, x, lengths, recurrent_state)


def get_recurrent_state_at(recurrent_state: RecurrentState, indices, detach: bool
                           ) -> RecurrentState:
    """The state of the batch entries ``indices``.

    Parameters
    ----------
    recurrent_state : state or None
    indices : int, or a sequence/array of ints
        An int drops the batch axis (one entry's state: leaves (S, units)); a sequence keeps it.
    detach : bool
        True: arrays without graph (to store); False: Variables that keep the graph.

    Returns
    -------
    The selected state (None for None).
    """
    def take(leaf):
        if detach:
            array = leaf.array if isinstance(leaf, kusari.Variable) else leaf
            return array[:, indices].copy()
        index = indices if isinstance(indices, (int, numpy.integer)) else \
            backend.get_array_module(leaf).asarray(indices)
        return F.get_item(leaf, (slice(None), index))
    return _map_state(take, recurrent_state)


def mask_recurrent_state_at(recurrent_state: RecurrentState, indices) -> RecurrentState:
    """The state with the batch entries ``indices`` set to zeros (episodes that ended restart).

    Parameters
    ----------
    recurrent_state : state or None
    indices : int or sequence of ints

    Returns
    -------
    A new state (leaves of the input's kinds; Variables keep the graph of the other entries), or
    None for None.
    """
    def mask(leaf):
        xp = backend.get_array_module(leaf)
        keep = numpy.ones((1, leaf.shape[1]) + (1,) * (leaf.ndim - 2), dtype=leaf.dtype)
        keep[:, indices] = 0
        return leaf * xp.asarray(keep)  # a product, so that a Variable keeps the others' graph
    return _map_state(mask, recurrent_state)


def restart_ended_episodes(recurrent_state: RecurrentState, batch_done: Sequence[bool],
                           batch_reset: Sequence[bool]) -> RecurrentState:
    """The state with the entries whose episode ended (done or reset) set to zeros."""
    ended = [i for i, (done, reset) in enumerate(zip(batch_done, batch_reset)) if done or reset]
    return mask_recurrent_state_at(recurrent_state, ended) if ended else recurrent_state


def concatenate_recurrent_states(split_recurrent_states: Sequence[RecurrentState]) -> RecurrentState:
    """Stack B single-entry states (leaves without the batch axis, as ``get_recurrent_state_at``
    with an int returns them) into one state of batch B; a None entry becomes zeros.

    Returns
    -------
    The batched state, or None when every entry is None.
    """
    template = next((s for s in split_recurrent_states if s is not None), None)
    if template is None:
        return None

    def stack(path: tuple):
        leaves = []
        for state in split_recurrent_states:
            leaf = template if state is None else state
            for i in path:
                leaf = leaf[i]
            leaves.append(leaf)
        if any(isinstance(v, kusari.Variable) for v in leaves):
            zero = [F.zeros_like(v) if s is None else v for v, s in zip(leaves, split_recurrent_states)]
            return F.stack(zero, axis=1)
        xp = backend.get_array_module(leaves[0])
        return xp.stack([xp.zeros_like(v) if s is None else v
                         for v, s in zip(leaves, split_recurrent_states)], axis=1)

    def build(node, path: tuple):
        if isinstance(node, tuple):
            return tuple(build(child, path + (i,)) for i, child in enumerate(node))
        return stack(path)
    return build(template, ())


def detach_recurrent_state(recurrent_state: RecurrentState) -> RecurrentState:
    """The state's leaves as arrays, without graph."""
    return _map_state(lambda leaf: leaf.array if isinstance(leaf, kusari.Variable) else leaf,
                      recurrent_state)


def recurrent_state_to_device(device, recurrent_state: RecurrentState) -> RecurrentState:
    """The state's leaves sent to ``device`` (None: left where they are)."""
    if device is None:
        return recurrent_state
    return _map_state(lambda leaf: backend.to_device(device, leaf), recurrent_state)


class RecurrentBatch(NamedTuple):
    """A batch of sequences and the recurrent state before their first steps: a model input that
    agents run through :func:`forward` (a replayed batch of episodes)."""

    sequences: list
    recurrent_state: RecurrentState


def forward(link: Any, x) -> Any:
    """``link(x)``, or for a :class:`RecurrentBatch` the packed outputs of its sequences run from
    its state (:func:`pack_and_forward`, the new state dropped)."""
    if isinstance(x, RecurrentBatch):
        return pack_and_forward(link, x.sequences, x.recurrent_state)[0]
    return link(x)
