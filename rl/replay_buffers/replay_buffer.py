"""The uniform experience replay buffer, storing n-step windows of consecutive transitions."""
import collections
from typing import Optional

import numpy

from kusari.rl.collections.columnar_queue import ColumnarQueue
from kusari.rl.collections.random_access_queue import RandomAccessQueue
from kusari.rl.replay_buffer import AbstractReplayBuffer
from kusari.rl.replay_buffers import transition_file


class ReplayBuffer(AbstractReplayBuffer):
    """Experience replay (Mnih et al., 2015) with n-step experiences.

    Each stored experience is a list of up to ``num_steps`` consecutive transitions of one
    environment: a full window once ``num_steps`` transitions have come, and the shorter tails
    of the episode when it ends (by a terminal transition or :meth:`stop_current_episode`).
    Windows share their transition dicts.

    Parameters
    ----------
    capacity : int, optional
        The most experiences kept (the oldest go first); None is unbounded.
    num_steps : int
        Transitions per experience, >= 1 (the n of n-step returns).
    """

    capacity: Optional[int] = None

    def __init__(self, capacity: Optional[int] = None, num_steps: int = 1):
        self.capacity = self._check_capacity(capacity)
        if isinstance(num_steps, bool) or not isinstance(num_steps, (int, numpy.integer)) or num_steps < 1:
            raise ValueError(f"{type(self).__name__}: num_steps must be an int >= 1, got {num_steps!r}")
        self.num_steps = int(num_steps)
        self.memory = self._new_memory()
        self.last_n_transitions = collections.defaultdict(
            lambda: collections.deque(maxlen=self.num_steps))

    def _new_memory(self, experiences=()):
        # one-step experiences also keep their fields in columns, for fast batching
        queue = ColumnarQueue if self.num_steps == 1 else RandomAccessQueue
        return queue(experiences, maxlen=self.capacity)

    def append(self, state, action, reward, next_state=None, next_action=None,
               is_state_terminal: bool = False, env_id=0, **kwargs) -> None:
        window = self.last_n_transitions[env_id]
        window.append(dict(state=state, action=action, reward=reward, next_state=next_state,
                           next_action=next_action, is_state_terminal=is_state_terminal, **kwargs))
        if is_state_terminal:
            self._store_tails(window)
        elif len(window) == self.num_steps:
            self.memory.append(list(window))

    def stop_current_episode(self, env_id=0) -> None:
        window = self.last_n_transitions[env_id]
        if 0 < len(window) < self.num_steps:
            # an episode shorter than num_steps: its first window was never full, so never stored
            self.memory.append(list(window))
        if window:
            window.popleft()  # the window starting here is stored already
        self._store_tails(window)

    def _store_tails(self, window: collections.deque) -> None:
        """Store ``window`` and each of its shorter tails, emptying it (the episode is over)."""
        while window:
            self.memory.append(list(window))
            window.popleft()

    def sample(self, num_experiences: int) -> list:
        """Draw ``num_experiences`` distinct experiences uniformly.

        Returns
        -------
        list of list of dict
            Each experience is 1 to ``num_steps`` consecutive transitions.
        """
        self._check_sample_size(num_experiences, len(self.memory))
        return self.memory.sample(num_experiences)

    def __len__(self) -> int:
        return len(self.memory)

    def save(self, filename) -> None:
        """Write the stored experiences to ``filename`` (``.npz``, atomically; see ``transition_file``).

        Episodes in progress are not saved.
        """
        owner = f"{type(self).__name__}.save"
        experiences = list(self.memory)
        rows = numpy.full((len(experiences), self.num_steps), -1, numpy.int64)
        table, position = [], {}
        for r, experience in enumerate(experiences):
            for c, transition in enumerate(experience):
                key = id(transition)
                if key not in position:
                    position[key] = len(table)
                    table.append(transition)
                rows[r, c] = position[key]
        fields, arrays = transition_file.encode_transitions(owner, table)
        extra_index, extra_arrays = self._extra_state()
        index = {"num_steps": self.num_steps, "num_transitions": len(table), "fields": fields,
                 **extra_index}
        transition_file.save_file(filename, type(self).__name__, index,
                                  {**arrays, "entries": rows, **extra_arrays})

    def prepare_load(self, filename):
        """Read the experiences saved in ``filename`` (the newest ``capacity``); the returned
        function makes them the stored ones. Episodes in progress are kept as they are.
        """
        owner = f"{type(self).__name__}.load"
        index, arrays = transition_file.load_file(filename, type(self).__name__, owner)
        if index.get("num_steps") != self.num_steps:
            raise ValueError(f"{owner}: {filename} holds {index.get('num_steps')!r}-step experiences; "
                             f"this buffer has num_steps={self.num_steps}")
        n = index.get("num_transitions")
        if not isinstance(n, int) or n < 0:
            raise ValueError(f"{owner}: {filename} has an invalid num_transitions {n!r}")
        entries = arrays.get("entries")
        num_rows = entries.shape[0] if entries is not None and entries.ndim == 2 else -1
        rows = transition_file.require_array(owner, filename, arrays, "entries",
                                             (num_rows, self.num_steps), numpy.int64)
        used = rows >= 0
        if (rows >= n).any() or (rows < -1).any() or not used[:, 0].all() or (used[:, 1:] > used[:, :-1]).any():
            raise ValueError(f"{owner}: {filename} has experiences that are not windows of its "
                             f"{n} transitions")
        table = transition_file.decode_transitions(owner, filename, index.get("fields"), arrays, n)
        experiences = [[table[j] for j in row if j >= 0] for row in rows.tolist()]
        memory = self._memory_from(experiences, index, arrays, owner, filename)
        return lambda: setattr(self, "memory", memory)

    def _extra_state(self):
        """``(index entries, arrays)`` a subclass saves beside the experiences."""
        return {}, {}

    def _memory_from(self, experiences: list, index: dict, arrays: dict, owner: str, filename):
        """The memory holding the loaded ``experiences``, built without touching ``self``."""
        return self._new_memory(experiences)
