"""The replay-buffer interface, and the batching of sampled n-step experiences for an update."""
import operator
from abc import ABCMeta, abstractmethod
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy

from kusari.dataset import to_device
from kusari.rl.collections.columnar_queue import columns_of
from kusari.rl.utils.batch_states import batch_states as default_batch_states

_ONE_STEP_FIELDS = operator.itemgetter("state", "action", "reward", "next_state",
                                       "is_state_terminal", "next_action")


class AbstractReplayBuffer(metaclass=ABCMeta):
    """Base of replay buffers: append transitions as they come, sample them for updates.

    A transition is a dict with ``state``, ``action``, ``reward``, ``next_state``, ``next_action``,
    ``is_state_terminal`` and any extra keys given to :meth:`append`.
    """

    @abstractmethod
    def append(self, state, action, reward, next_state=None, next_action=None,
               is_state_terminal: bool = False, env_id=0, **kwargs) -> None:
        """Store the transition ``(s_t, a_t, r_t, s_{t+1}, a_{t+1})`` of environment ``env_id``.

        Parameters
        ----------
        state, action, reward, next_state, next_action
            ``s_t, a_t, r_t, s_{t+1}, a_{t+1}``; ``next_action`` may be None (off-policy agents).
        is_state_terminal : bool
            gymnasium's ``terminated``: ``next_state`` ends the episode and has no value to
            bootstrap from. A ``truncated`` end is told by :meth:`stop_current_episode` instead.
        env_id : hashable
            Which of several environments the transition came from; each has its own episode.
        **kwargs
            Extra values stored in the transition.
        """

    @abstractmethod
    def sample(self, num_experiences: int) -> list:
        """Draw ``num_experiences`` distinct stored experiences."""

    @abstractmethod
    def __len__(self) -> int:
        """The number of stored experiences."""

    @abstractmethod
    def save(self, filename) -> None:
        """Write the stored experiences to ``filename`` (an ``.npz``, atomically)."""

    def load(self, filename) -> None:
        """Replace the stored experiences with those of a file written by :meth:`save`.

        All or nothing: a file that cannot be read whole leaves the buffer as it was.
        """
        self.prepare_load(filename)()

    @abstractmethod
    def prepare_load(self, filename) -> Callable[[], None]:
        """Read and check the file :meth:`save` wrote, changing nothing; returns the function
        that puts what was read in place (it cannot fail). An agent's ``load`` prepares every
        file before it changes anything.

        Raises
        ------
        ValueError
            The file is not such a file, is damaged, or does not fit this buffer; it is named.
        """

    @property
    @abstractmethod
    def capacity(self) -> Optional[int]:
        """The most transitions kept (None: unbounded)."""

    @abstractmethod
    def stop_current_episode(self, env_id=0) -> None:
        """End environment ``env_id``'s episode without a terminal state (gymnasium's ``truncated``).

        The next transition appended for ``env_id`` starts a new episode. Not to be called after a
        transition appended with ``is_state_terminal=True``, which ended the episode already.
        """

    def _check_capacity(self, capacity) -> Optional[int]:
        if capacity is not None and (isinstance(capacity, bool) or not isinstance(capacity, (int, numpy.integer))
                                     or capacity < 1):
            raise ValueError(f"{type(self).__name__}: capacity must be None or an int >= 1, got {capacity!r}")
        return None if capacity is None else int(capacity)

    def _check_sample_size(self, n: int, available: int, what: str = "experiences") -> None:
        if not 0 <= n <= available:
            raise ValueError(f"{type(self).__name__}: cannot sample {n} {what}; the buffer holds {available}")


class AbstractEpisodicReplayBuffer(AbstractReplayBuffer):
    """Base of replay buffers that also sample whole episodes."""

    @abstractmethod
    def sample_episodes(self, n_episodes: int, max_len: Optional[int] = None) -> List[list]:
        """Draw ``n_episodes`` distinct episodes, each cut to a random window of ``max_len`` if longer."""

    @property
    @abstractmethod
    def n_episodes(self) -> int:
        """The number of stored episodes."""


def random_subseq(seq: Sequence, subseq_len: int) -> Sequence:
    """A uniformly placed window of ``subseq_len`` items of ``seq`` (all of it when not longer)."""
    if len(seq) <= subseq_len:
        return seq
    start = numpy.random.randint(0, len(seq) - subseq_len + 1)
    return seq[start:start + subseq_len]


def batch_experiences(experiences: List[List[dict]], device, phi: Callable[[Any], Any], gamma: float,
                      batch_states: Callable = default_batch_states) -> Dict[str, Any]:
    """Batch ``B`` n-step experiences (lists of 1 to n consecutive transitions) for an update.

    Parameters
    ----------
    experiences : list of list of dict
        As :meth:`ReplayBuffer.sample` returns them. A sample that carries its fields as columns
        (:class:`kusari.rl.collections.SampledExperiences`) is batched from those; ``phi`` then sees
        each observation as a row of the gathered array (equal values, shape and dtype).
    device
        Where the arrays go: None (leave them), ``'@numpy'``, ``'@cupy:N'``, an int or a Device.
    phi : callable
        Feature extractor applied to each observation.
    gamma : float
        Discount factor.
    batch_states : callable
        ``batch_states(states, device, phi)`` builds the model input from observations.

    Returns
    -------
    dict
        ``state`` and ``next_state`` (from ``batch_states``; ``next_state`` is the last transition's),
        ``action`` ``(B,) + action shape`` (the first transition's), float32 ``(B,)`` arrays
        ``reward`` (``sum_i gamma**i r_i``), ``is_state_terminal`` (1 if any transition
        terminated) and ``discount`` (``gamma**len``), and ``next_action`` when every last
        transition has one.
    """
    if not experiences:
        raise ValueError("batch_experiences: experiences is empty")
    columns = columns_of(experiences)
    if columns is not None:
        # a ReplayBuffer's sample of one-step experiences: its fields come gathered as arrays
        return {
            "state": batch_states(list(columns["state"]), device, phi),
            "action": to_device(device, columns["action"]),
            "reward": to_device(device, columns["reward"]),
            "next_state": batch_states(list(columns["next_state"]), device, phi),
            "is_state_terminal": to_device(device, columns["is_state_terminal"]),
            "discount": _float32(device, [gamma] * len(experiences)),
        }
    if all(len(exp) == 1 for exp in experiences):
        # one-step experiences (the common case): one read of each transition's fields, no sums
        state, action, reward, next_state, terminal, next_action = zip(
            *map(_ONE_STEP_FIELDS, [exp[0] for exp in experiences]))
        discount = [gamma] * len(experiences)
    else:
        state = [exp[0]["state"] for exp in experiences]
        action = [exp[0]["action"] for exp in experiences]
        reward = [sum(gamma ** i * t["reward"] for i, t in enumerate(exp)) for exp in experiences]
        next_state = [exp[-1]["next_state"] for exp in experiences]
        terminal = [any(t["is_state_terminal"] for t in exp) for exp in experiences]
        next_action = [exp[-1]["next_action"] for exp in experiences]
        discount = [gamma ** len(exp) for exp in experiences]
    batch = {
        "state": batch_states(state, device, phi),
        "action": to_device(device, numpy.asarray(action)),
        "reward": _float32(device, reward),
        "next_state": batch_states(next_state, device, phi),
        "is_state_terminal": _float32(device, terminal),
        "discount": _float32(device, discount),
    }
    if all(a is not None for a in next_action):
        batch["next_action"] = to_device(device, numpy.asarray(next_action))
    return batch


def _float32(device, values: list):
    return to_device(device, numpy.asarray(values, dtype=numpy.float32))


class ReplayUpdater:
    """The update schedule of a replay-based agent (PFRL's ``ReplayUpdater``).

    At step ``iteration``, once the buffer holds ``replay_start_size`` transitions (and, for episodic
    updates, ``batchsize`` episodes) and ``iteration`` is a multiple of ``update_interval``,
    ``update_func`` runs ``n_times_update`` times, each on a fresh sample: ``batchsize`` transitions
    (as ``replay_buffer.sample`` returns them), or ``batchsize`` episodes cut to
    ``episodic_update_len``.

    The constructor is the one check of these arguments for DQN and the actor-critic agents: its
    errors name ``who`` (the agent) and the agents' argument names (``minibatch_size`` for
    ``batchsize``).

    Parameters
    ----------
    replay_buffer : AbstractReplayBuffer (AbstractEpisodicReplayBuffer for episodic updates)
    update_func : callable(experiences)
    batchsize, n_times_update, replay_start_size, update_interval : int >= 1
        ``replay_start_size`` at least ``batchsize`` and at most the buffer's capacity.
    episodic_update : bool
    episodic_update_len : int or None
    who : str
    """

    def __init__(self, replay_buffer: AbstractReplayBuffer, update_func: Callable[[list], Any],
                 batchsize: int, episodic_update: bool, n_times_update: int, replay_start_size: int,
                 update_interval: int, episodic_update_len: Optional[int] = None,
                 who: str = "ReplayUpdater"):
        # imported here: kusari.rl.agents imports this module
        from kusari.rl.agents._common import require_positive_int
        for name, value in (("minibatch_size", batchsize), ("n_times_update", n_times_update),
                            ("replay_start_size", replay_start_size),
                            ("update_interval", update_interval)):
            require_positive_int(who, name, value)
        if replay_start_size < batchsize:
            raise ValueError(f"{who}: replay_start_size={replay_start_size} is below "
                             f"minibatch_size={batchsize}; the first update could not fill a "
                             "minibatch")
        capacity = getattr(replay_buffer, "capacity", None)
        if capacity is not None and replay_start_size > capacity:
            raise ValueError(f"{who}: replay_start_size={replay_start_size} exceeds the replay "
                             f"buffer's capacity={capacity}; updates would never start")
        if episodic_update and not isinstance(replay_buffer, AbstractEpisodicReplayBuffer):
            raise TypeError(f"{who}: episodic updates need an episodic replay buffer, got "
                            f"{type(replay_buffer).__name__}")
        self.replay_buffer = replay_buffer
        self.update_func = update_func
        self.batchsize = batchsize
        self.episodic_update = episodic_update
        self.episodic_update_len = episodic_update_len
        self.n_times_update = n_times_update
        self.replay_start_size = replay_start_size
        self.update_interval = update_interval

    def update_if_necessary(self, iteration: int) -> bool:
        """Run the updates due at step ``iteration``; True if any ran."""
        buffer = self.replay_buffer
        if (len(buffer) < self.replay_start_size or iteration % self.update_interval
                or (self.episodic_update and buffer.n_episodes < self.batchsize)):
            return False
        for _ in range(self.n_times_update):
            if self.episodic_update:
                self.update_func(buffer.sample_episodes(self.batchsize, self.episodic_update_len))
            else:
                self.update_func(buffer.sample(self.batchsize))
        return True
