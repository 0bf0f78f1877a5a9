"""The agent interface (PFRL's): act/observe, batch_act/batch_observe, eval_mode, save/load, statistics.

Saving never pickles: an agent's state (its networks, optimizers, target networks and counters) goes
through kusari's serializers into one NPZ file, ``<dirname>/agent.npz``, written atomically and
loaded all or nothing. Replay buffers, which can be large, are saved beside it only when asked.
"""
import contextlib
import os
from abc import ABCMeta, abstractmethod
from typing import Any, List, Optional, Sequence, Tuple

import numpy

from kusari import Link, Optimizer, serializers

STATE_FILE = "agent.npz"
_SCALAR_TYPES = (bool, int, float, numpy.bool_, numpy.integer, numpy.floating)


class Agent(metaclass=ABCMeta):
    """An agent that acts in one environment.

    ``training`` is True while the agent learns; inside :meth:`eval_mode` it is False, the agent acts
    greedily (or deterministically) and ``observe`` stores nothing and advances no counter.
    """

    training = True

    @abstractmethod
    def act(self, obs: Any) -> Any:
        """The action for observation ``obs``."""

    @abstractmethod
    def observe(self, obs: Any, reward: float, done: bool, reset: bool) -> None:
        """Observe the result of the last action.

        Parameters
        ----------
        obs : object
            The observation after the action.
        reward : float
            The reward for it.
        done : bool
            The episode terminated (gymnasium's ``terminated``): ``obs`` is a terminal state.
        reset : bool
            The episode ends here without terminating (gymnasium's ``truncated``, or the training
            loop's own limit); the next ``act`` starts a new episode.

        Raises
        ------
        ValueError
            While training, for an observation of another shape or dtype than the first one the
            agent's model accepted, a reward that is not a finite real number, or a done or reset
            that is not a bool. A refused call records nothing: the agent stays as it was.
        """

    @abstractmethod
    def save(self, dirname: str) -> None:
        """Write the agent's state into the folder ``dirname`` (created if needed)."""

    @abstractmethod
    def load(self, dirname: str) -> None:
        """Read the state that :meth:`save` wrote into ``dirname``."""

    @abstractmethod
    def get_statistics(self) -> List[Tuple[str, Any]]:
        """``[(name, value), ...]`` to log, with the same names from construction on."""

    @contextlib.contextmanager
    def eval_mode(self):
        """A block in which the agent evaluates: ``training`` is False, restored afterwards."""
        previous = self.training
        self.training = False
        try:
            yield
        finally:
            self.training = previous


class BatchAgent(Agent, metaclass=ABCMeta):
    """An agent that acts in a batch of environments; ``act``/``observe`` are batches of one."""

    def act(self, obs: Any) -> Any:
        return self.batch_act([obs])[0]

    def observe(self, obs: Any, reward: float, done: bool, reset: bool) -> None:
        self.batch_observe([obs], [reward], [done], [reset])

    @abstractmethod
    def batch_act(self, batch_obs: Sequence[Any]) -> Sequence[Any]:
        """One action per observation of ``batch_obs``."""

    @abstractmethod
    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Observe one result per environment (see :meth:`Agent.observe` for each entry)."""


class AsyncAgent(Agent, metaclass=ABCMeta):
    """An agent whose copies in several processes train shared parameters (A3C)."""

    @property
    @abstractmethod
    def process_idx(self) -> Optional[int]:
        """This copy's process index (0 for the representative one), or None before it is set."""

    @property
    @abstractmethod
    def shared_attributes(self) -> Tuple[str, ...]:
        """Names of the attributes whose arrays the processes share."""


class AttributeSavingMixin:
    """``save``/``load`` for the attributes named in ``saved_attributes``.

    Each named attribute is a :class:`kusari.Link` (a network or a target network), a
    :class:`kusari.Optimizer`, another ``AttributeSavingMixin``, a number (a counter such as ``t``),
    or None (skipped). They are written under their names into ``<dirname>/agent.npz``. Attributes
    named in ``replay_buffer_attributes`` (replay buffers, with ``save(filename)`` and
    ``prepare_load(filename)``) are written to ``<dirname>/<name>.npz`` only by
    ``save(dirname, save_replay_buffer=True)``, and loaded when that file exists.

    ``load`` is all or nothing across its files: every buffer file is read and checked, then the
    state file (checked whole before its first value is written), and only then are the buffers
    replaced; a damaged or mismatched file leaves the whole agent as it was and is named.
    """

    saved_attributes: Tuple[str, ...] = ()
    replay_buffer_attributes: Tuple[str, ...] = ()

    def before_save(self) -> None:
        """Called before the state is written (``save``, :func:`save_weights`); does nothing here."""

    def after_load(self) -> None:
        """Called after the state is read (``load``, :func:`load_weights`); does nothing here."""

    def save(self, dirname: str, save_replay_buffer: bool = False) -> None:
        os.makedirs(dirname, exist_ok=True)
        self.before_save()
        serializers.save_npz(os.path.join(dirname, STATE_FILE), _State(self))
        if save_replay_buffer:
            for name in self.replay_buffer_attributes:
                buffer = getattr(self, name)
                if buffer is not None:
                    buffer.save(os.path.join(dirname, name + ".npz"))

    def load(self, dirname: str) -> None:
        path = os.path.join(dirname, STATE_FILE)
        if not os.path.isfile(path):
            raise FileNotFoundError(f"{type(self).__name__}.load: {path} does not exist; "
                                    f"{dirname!r} is not a folder written by save()")
        replace_buffers = []
        for name in self.replay_buffer_attributes:
            buffer, buffer_path = getattr(self, name), os.path.join(dirname, name + ".npz")
            if buffer is None or not os.path.isfile(buffer_path):
                continue
            if not hasattr(buffer, "prepare_load"):
                raise TypeError(f"{type(self).__name__}.load: {name} is a {type(buffer).__name__} "
                                "without prepare_load, so it cannot be loaded all or nothing; "
                                "subclass kusari.rl.replay_buffer.AbstractReplayBuffer")
            replace_buffers.append(buffer.prepare_load(buffer_path))
        serializers.load_npz(path, _State(self))
        self.after_load()
        for replace in replace_buffers:
            replace()

    def serialize(self, serializer) -> None:
        """Serialize the ``saved_attributes`` under their names (Chainer's ``serialize`` protocol)."""
        _State(self).serialize(serializer)


def save_weights(agent: AttributeSavingMixin, path: str) -> None:
    """Write ``agent``'s saved attributes except optimizer state into the NPZ file ``path``.

    What acting and fine-tuning need (networks, target networks, normalizers' statistics, counters)
    at a fraction of ``save``'s size: Adam's moments alone double it. Written atomically.
    """
    agent.before_save()
    serializers.save_npz(path, _State(agent, optimizers=False))


def load_weights(agent: AttributeSavingMixin, path: str) -> None:
    """Read what :func:`save_weights` wrote to ``path`` into ``agent`` (all or nothing); its
    optimizers keep their state."""
    if not os.path.isfile(path):
        raise FileNotFoundError(f"load_weights: no file {path!r}")
    serializers.load_npz(path, _State(agent, optimizers=False))
    agent.after_load()


def _holds(serializer, name: str) -> bool:
    """Whether the NPZ file behind ``serializer`` has an entry ``name`` or entries under it."""
    npz = getattr(serializer, "npz", None)
    if npz is None:
        return False
    key = serializer.path + name
    return any(k == key or k.startswith(key + "/") for k in npz)


class _State:
    """Adapts an AttributeSavingMixin's ``saved_attributes`` to the serializer protocol
    (``optimizers=False`` leaves Optimizers out)."""

    def __init__(self, owner, ancestors=(), optimizers=True):
        self.owner = owner
        self.ancestors = ancestors + (owner,)
        self.optimizers = optimizers

    def serialize(self, serializer) -> None:
        owner = self.owner
        for name in owner.saved_attributes:
            if not hasattr(owner, name):
                raise AttributeError(f"{type(owner).__name__}: saved_attributes names {name!r}, "
                                     "which the agent does not have")
            value = getattr(owner, name)
            if value is None:
                if serializer.is_loading and _holds(serializer, name):
                    raise ValueError(f"{type(owner).__name__}: the file holds {name!r}, but this agent "
                                     f"was built without one ({name}=None); build it with one to load "
                                     "the file")
                continue
            if isinstance(value, AttributeSavingMixin):
                if any(value is a for a in self.ancestors):
                    raise ValueError(f"{type(owner).__name__}: saved attribute {name!r} contains "
                                     "itself; saving would never end")
                _State(value, self.ancestors, self.optimizers).serialize(serializer[name])
            elif isinstance(value, Link) or (isinstance(value, Optimizer) and self.optimizers):
                value.serialize(serializer[name])
            elif isinstance(value, Optimizer):
                continue
            elif isinstance(value, _SCALAR_TYPES):
                setattr(owner, name, type(value)(serializer(name, value)))
            else:
                raise TypeError(f"{type(owner).__name__}: saved attribute {name!r} is a "
                                f"{type(value).__name__}; only Links, Optimizers, numbers and "
                                "AttributeSavingMixin objects can be saved")
