"""The recurrent-link interface of kusari.rl (PFRL's ``pfrl.nn.Recurrent``) and how it is called.

A recurrent link is called as ``link(xs, recurrent_state) -> (y, new_recurrent_state)``:

- ``xs`` is a list of B sequences, each an array or Variable of shape (T_b, ...) with T_b >= 1;
- ``recurrent_state`` is None (zeros) or the state of the B sequences before their first step;
- ``y`` holds the outputs of every step, the sequences concatenated in order (``sum_b T_b`` rows:
  sequence 0's T_0 steps, then sequence 1's, ...). This is kusari's packed batch: where PFRL packs
  time-major in a ``PackedSequence``, kusari keeps whole sequences one after another, so that the
  feed-forward layers between recurrent ones, and the heads after them (action values, policy
  distributions), simply see ``sum_b T_b`` rows;
- ``new_recurrent_state`` is the state after each sequence's last step.

A state is a tree of tuples whose leaves have the batch on axis 1: ``(h, c)`` of shape
(n_layers, B, units) each for ``NStepLSTM``, ``h`` for ``NStepGRU`` and the other ``NStep*`` links, a
tuple of its members' states for :class:`RecurrentSequential`; any subtree may be None (zeros).
"""
import itertools
from typing import Any

import kusari
import kusari.functions as F
from kusari.links.rnn.n_step_rnn import NStepRNNBase
from kusari import backend

RecurrentState = Any  # None, an array or Variable (S, B, units), or a tuple of RecurrentStates


class Recurrent:
    """The interface of a recurrent link (mixed into a :class:`kusari.Link`).

    A subclass implements :meth:`packed_forward`; calling the link on a list of sequences packs them
    and calls it. ``NStepLSTM``, ``NStepGRU`` and the other ``NStep*`` links of ``kusari.links`` are
    recurrent too (:func:`is_recurrent`), without deriving from this class.
    """

    def packed_forward(self, x, lengths: list[int], recurrent_state: RecurrentState
                       ) -> tuple[Any, RecurrentState]:
        """``(y, new_state)`` from the packed input ``x`` (``sum(lengths)`` rows, sequence after
        sequence) of ``len(lengths)`` sequences."""
        raise NotImplementedError

    def forward(self, xs: list, recurrent_state: RecurrentState = None) -> tuple[Any, RecurrentState]:
        """``(y, new_state)``: y the ``sum_b T_b`` rows of outputs of the B sequences ``xs``."""
        x, lengths = pack_sequences(type(self).__name__, xs)
        return self.packed_forward(x, lengths, recurrent_state)


StatelessRecurrent = Recurrent  # ChainerRL's name of the same interface: the state is passed, not kept


def is_recurrent(link: Any) -> bool:
    """Whether ``link`` is called with a recurrent state: a :class:`Recurrent` or an ``NStep*`` link."""
    return isinstance(link, (Recurrent, NStepRNNBase))


def pack_sequences(who: str, xs: list) -> tuple[Any, list[int]]:
    """The B sequences ``xs`` (arrays or Variables (T_b, ...)) concatenated along axis 0, and their
    lengths; refused unless a non-empty list of non-empty sequences."""
    if not isinstance(xs, (list, tuple)) or not xs:
        raise TypeError(f"{who}: expected a non-empty list of sequences (arrays of shape (T, ...)), "
                        f"got {type(xs).__name__}")
    lengths = []
    for b, x in enumerate(xs):
        shape = getattr(x, "shape", None)
        if shape is None or len(shape) == 0 or shape[0] == 0:
            raise ValueError(f"{who}: sequence {b} must be an array of shape (T, ...) with T >= 1, "
                             f"got {type(x).__name__} of shape {shape}")
        lengths.append(int(shape[0]))
    if len(xs) == 1:
        return xs[0], lengths
    if any(isinstance(x, kusari.Variable) for x in xs):
        return F.concat(xs, axis=0), lengths
    return backend.get_array_module(xs[0]).concatenate(xs, axis=0), lengths


def split_packed(x, lengths: list[int]) -> list:
    """The packed rows ``x`` split back into ``len(lengths)`` sequences (Variables)."""
    if len(lengths) == 1:
        return [x if isinstance(x, kusari.Variable) else kusari.Variable(x, requires_grad=False)]
    return list(F.split_axis(x, list(itertools.accumulate(lengths[:-1])), axis=0))


def _check_rows(who: str, x, lengths: list[int]) -> None:
    shape = getattr(x, "shape", None)
    rows = shape[0] if shape else None
    if rows != sum(lengths):
        raise ValueError(f"{who}: the packed input has {rows} rows but the sequence lengths "
                         f"{lengths} sum to {sum(lengths)}")


def call_packed(link: Any, x, lengths: list[int], recurrent_state: RecurrentState
                ) -> tuple[Any, RecurrentState]:
    """Run the recurrent ``link`` on packed sequences: ``(y, new_state)``, y packed as ``x`` is.

    ``NStepLSTM`` takes and returns ``(h, c)``, the other ``NStep*`` links ``h``; a
    :class:`Recurrent` its own state.
    """
    name = type(link).__name__
    if isinstance(link, Recurrent):
        return link.packed_forward(x, lengths, recurrent_state)
    if not isinstance(link, NStepRNNBase):
        raise TypeError(f"call_packed: {name} is not recurrent (a kusari.rl.nn.Recurrent or an "
                        "NStep* link of kusari.links)")
    if link.use_bi_direction:
        raise TypeError(f"call_packed: {name} is bidirectional: its outputs depend on later steps, "
                        "which an agent acting one step at a time does not have")
    _check_rows(name, x, lengths)
    xs = split_packed(x, lengths)
    if link.use_cell:
        h, c = (None, None) if recurrent_state is None else recurrent_state
        h, c, ys = link(h, c, xs)
        new_state = (h, c)
    else:
        new_state, ys = link(recurrent_state, xs)
    return (ys[0] if len(ys) == 1 else F.concat(ys, axis=0)), new_state


class RecurrentSequential(Recurrent, kusari.Sequential):
    """A Sequential whose recurrent members (:func:`is_recurrent`) thread a recurrent state.

    Feed-forward layers are applied to the packed rows (all steps of all sequences at once);
    recurrent members get the sequences and their own part of the state. The state is the tuple of
    the recurrent members' states, in order (None: zeros for all).

    >>> model = RecurrentSequential(L.Linear(4, 8), F.relu, L.NStepLSTM(1, 8, 8, 0.0), L.Linear(8, 2))
    >>> y, state = model([numpy.zeros((3, 4), 'f'), numpy.zeros((5, 4), 'f')], None)  # y: (8, 2)
    """

    @property
    def recurrent_children(self) -> tuple:
        """The recurrent members, in order: one entry of the state each."""
        return tuple(layer for layer in self if is_recurrent(layer))

    def packed_forward(self, x, lengths: list[int], recurrent_state: RecurrentState
                       ) -> tuple[Any, RecurrentState]:
        members = self.recurrent_children
        if recurrent_state is None:
            states = [None] * len(members)
        elif isinstance(recurrent_state, tuple) and len(recurrent_state) == len(members):
            states = list(recurrent_state)
        else:
            got = (f"a tuple of {len(recurrent_state)}" if isinstance(recurrent_state, tuple)
                   else type(recurrent_state).__name__)
            raise ValueError(f"RecurrentSequential: recurrent_state must be None or a tuple of "
                             f"{len(members)} states (one per recurrent member), got {got}")
        new_states = []
        h = x
        for layer in self:
            if is_recurrent(layer):
                h, state = call_packed(layer, h, lengths, states[len(new_states)])
                new_states.append(state)
            else:
                h = layer(*h) if isinstance(h, tuple) else layer(h)
        return h, tuple(new_states)
