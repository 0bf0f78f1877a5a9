"""A replay buffer that keeps whole episodes, for sampling transitions or (sub)episodes."""
import collections
from typing import Optional

import numpy

from kusari.rl.collections.random_access_queue import RandomAccessQueue
from kusari.rl.replay_buffer import AbstractEpisodicReplayBuffer, random_subseq
from kusari.rl.replay_buffers import transition_file
from kusari.rl.replay_buffers.tuple_fields import join_tuple_fields, split_tuple_fields


class EpisodicReplayBuffer(AbstractEpisodicReplayBuffer):
    """Replay buffer of finished episodes (recurrent and episodic agents sample these).

    Transitions of an episode in progress are held apart until it ends (terminal transition or
    :meth:`stop_current_episode`); then the episode is stored whole. At capacity, whole oldest
    episodes are dropped.

    Parameters
    ----------
    capacity : int, optional
        The most transitions kept; None is unbounded.
    """

    capacity: Optional[int] = None

    def __init__(self, capacity: Optional[int] = None):
        self.capacity = self._check_capacity(capacity)
        self.current_episode = collections.defaultdict(list)
        self.episodic_memory = RandomAccessQueue()
        self.memory = RandomAccessQueue()

    def append(self, state, action, reward, next_state=None, next_action=None,
               is_state_terminal: bool = False, env_id=0, **kwargs) -> None:
        self.current_episode[env_id].append(dict(
            state=state, action=action, reward=reward, next_state=next_state,
            next_action=next_action, is_state_terminal=is_state_terminal, **kwargs))
        if is_state_terminal:
            self.stop_current_episode(env_id=env_id)

    def stop_current_episode(self, env_id=0) -> None:
        episode = self.current_episode.pop(env_id, None)
        if episode:
            self._store(episode)
            self._evict()

    def _store(self, episode: list) -> None:
        self.episodic_memory.append(episode)
        for transition in episode:
            self.memory.append([transition])

    def _evict(self) -> None:
        while self.capacity is not None and len(self.memory) > self.capacity:
            for _ in range(len(self.episodic_memory.popleft())):
                self.memory.popleft()

    def sample(self, n: int) -> list:
        """Draw ``n`` distinct transitions uniformly, each as a one-transition experience ``[t]``."""
        self._check_sample_size(n, len(self.memory))
        return self.memory.sample(n)

    def sample_episodes(self, n_episodes: int, max_len: Optional[int] = None) -> list:
        """Draw ``n_episodes`` distinct episodes; with ``max_len``, a random window of the longer ones."""
        self._check_sample_size(n_episodes, len(self.episodic_memory), "episodes")
        episodes = self.episodic_memory.sample(n_episodes)
        if max_len is None:
            return episodes
        return [random_subseq(episode, max_len) for episode in episodes]

    def __len__(self) -> int:
        return len(self.memory)

    @property
    def n_episodes(self) -> int:
        return len(self.episodic_memory)

    def save(self, filename) -> None:
        """Write the stored episodes to ``filename`` (``.npz``, atomically); episodes in progress are
        not saved. Tuple-valued fields (a recurrent agent's states) are saved leaf by leaf."""
        owner = f"{type(self).__name__}.save"
        episodes = list(self.episodic_memory)
        transitions, forms = split_tuple_fields(owner, [t for episode in episodes for t in episode])
        fields, arrays = transition_file.encode_transitions(owner, transitions)
        lengths = numpy.array([len(episode) for episode in episodes], numpy.int64)
        index = {"num_transitions": int(lengths.sum()), "fields": fields}
        if forms:
            index["tuple_fields"] = forms
        transition_file.save_file(filename, type(self).__name__, index,
                                  {**arrays, "episode_lengths": lengths})

    def prepare_load(self, filename):
        """Read the episodes saved in ``filename`` (the newest within ``capacity``); the returned
        function makes them the stored ones. Episodes in progress are kept as they are."""
        owner = f"{type(self).__name__}.load"
        index, arrays = transition_file.load_file(filename, type(self).__name__, owner)
        stored = arrays.get("episode_lengths")
        lengths = transition_file.require_array(
            owner, filename, arrays, "episode_lengths",
            (stored.shape[0] if stored is not None and stored.ndim == 1 else -1,), numpy.int64)
        n = index.get("num_transitions")
        if not isinstance(n, int) or (lengths < 1).any() or int(lengths.sum()) != n:
            raise ValueError(f"{owner}: {filename} has episode lengths {lengths.tolist()} that do "
                             f"not split its {n!r} transitions")
        table = join_tuple_fields(owner, filename, index.get("tuple_fields", {}),
                                  transition_file.decode_transitions(
                                      owner, filename, index.get("fields"), arrays, n))
        loaded = EpisodicReplayBuffer(self.capacity)  # filled apart, so that self changes at once
        start = 0
        for length in lengths.tolist():
            loaded._store(table[start:start + length])
            start += length
        loaded._evict()

        def apply():
            self.episodic_memory, self.memory = loaded.episodic_memory, loaded.memory
        return apply
