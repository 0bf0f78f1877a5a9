"""Prioritized experience replay (Schaul et al., 2016), proportional variant."""
from typing import List, Optional, Sequence

import numpy

from kusari.rl.collections.prioritized import PrioritizedBuffer
from kusari.rl.replay_buffers import transition_file
from kusari.rl.replay_buffers.replay_buffer import ReplayBuffer


class PriorityWeightError:
    """Priorities from TD errors and importance-sampling weights from probabilities.

    ``priority = (clip(error, error_min, error_max) + eps) ** alpha``; the weight of an
    experience drawn with probability ``p`` is ``(p / p_min) ** -beta`` (normalized) or
    ``(len * p) ** -beta``, with ``beta`` growing from ``beta0`` by ``(1 - beta0) / betasteps`` per
    weighted batch, up to 1.

    Parameters
    ----------
    alpha : float
        How strongly errors shape the sampling, >= 0 (0 is uniform).
    beta0 : float
        Initial ``beta``, in [0, 1].
    betasteps : float or None
        Batches over which ``beta`` reaches 1; None keeps it at ``beta0``.
    eps : float
        Added to errors so that an experience with zero error can still be drawn.
    normalize_by_max : bool or str
        ``True`` or ``'batch'``: ``p_min`` is the batch's smallest probability (weights <= 1);
        ``'memory'``: the buffer's smallest; ``False``: no normalization.
    error_min, error_max : float or None
        Clipping bounds of errors; None leaves that side open.
    """

    def __init__(self, alpha, beta0, betasteps, eps, normalize_by_max, error_min, error_max):
        name = type(self).__name__
        if not alpha >= 0:
            raise ValueError(f"{name}: alpha must be >= 0, got {alpha!r}")
        if not 0 <= beta0 <= 1:
            raise ValueError(f"{name}: beta0 must be in [0, 1], got {beta0!r}")
        if betasteps is not None and not betasteps > 0:
            raise ValueError(f"{name}: betasteps must be None or > 0, got {betasteps!r}")
        if normalize_by_max not in (True, False, "batch", "memory"):
            raise ValueError(f"{name}: normalize_by_max must be True, False, 'batch' or 'memory', "
                             f"got {normalize_by_max!r}")
        if error_min is not None and error_max is not None and error_min > error_max:
            raise ValueError(f"{name}: error_min must not exceed error_max, got {error_min!r} > {error_max!r}")
        self.alpha = alpha
        self.beta = beta0
        self.beta_add = 0 if betasteps is None else (1.0 - beta0) / betasteps
        self.eps = eps
        self.normalize_by_max = "batch" if normalize_by_max is True else normalize_by_max
        self.error_min = error_min
        self.error_max = error_max

    def priority_from_errors(self, errors: Sequence[float]) -> List[float]:
        """Priorities ``(clip(error) + eps) ** alpha`` of ``errors`` (one per sampled experience)."""
        priorities = []
        for error in errors:
            error = float(error)
            if self.error_min is not None:
                error = max(self.error_min, error)
            if self.error_max is not None:
                error = min(self.error_max, error)
            priorities.append((error + self.eps) ** self.alpha)
        return priorities

    def weights_from_probabilities(self, probabilities: Sequence[float], min_probability: float) -> List[float]:
        """Importance weights of experiences drawn with ``probabilities``; then advances ``beta``.

        ``min_probability`` is the smallest probability in the buffer (used by ``'memory'``).
        """
        if self.normalize_by_max == "batch":
            min_probability = min(probabilities)
        if self.normalize_by_max:
            weights = [(p / min_probability) ** -self.beta for p in probabilities]
        else:
            weights = [(len(self.memory) * p) ** -self.beta for p in probabilities]
        self.beta = min(1.0, self.beta + self.beta_add)
        return weights


class PrioritizedReplayBuffer(ReplayBuffer, PriorityWeightError):
    """Replay buffer drawing experiences in proportion to their priorities (from TD errors).

    A new experience gets the largest priority seen so far. After :meth:`sample`, give the
    batch's errors to :meth:`update_errors`. Sampled experiences carry their importance weight
    as ``experience[0]['weight']`` (on a copy of the first transition; stored ones are untouched).

    Parameters
    ----------
    capacity : int, optional
        The most experiences kept (the oldest go first); None is unbounded.
    alpha, beta0, betasteps, eps, normalize_by_max, error_min, error_max
        See :class:`PriorityWeightError`.
    num_steps : int
        Transitions per experience, >= 1.
    """

    def __init__(self, capacity: Optional[int] = None, alpha: float = 0.6, beta0: float = 0.4,
                 betasteps: Optional[float] = 2e5, eps: float = 0.01, normalize_by_max=True,
                 error_min: Optional[float] = 0, error_max: Optional[float] = 1, num_steps: int = 1):
        ReplayBuffer.__init__(self, capacity, num_steps)
        PriorityWeightError.__init__(self, alpha, beta0, betasteps, eps, normalize_by_max,
                                     error_min=error_min, error_max=error_max)

    def _new_memory(self):
        return PrioritizedBuffer(capacity=self.capacity)

    def sample(self, n: int) -> list:
        """Draw ``n`` distinct experiences by priority, each with ``experience[0]['weight']``."""
        self._check_sample_size(n, len(self.memory))
        sampled, probabilities, min_probability = self.memory.sample(n)
        weights = self.weights_from_probabilities(probabilities, min_probability)
        return [[dict(experience[0], weight=w)] + experience[1:]
                for experience, w in zip(sampled, weights)]

    def update_errors(self, errors: Sequence[float]) -> None:
        """Set the priorities of the last sampled batch from its errors (same order as sampled)."""
        self.memory.set_last_priority(self.priority_from_errors(errors))

    def _extra_state(self):
        return ({"max_priority": self.memory.max_priority},
                {"priorities": numpy.asarray(self.memory.priorities(), numpy.float64)})

    def _memory_from(self, experiences, index, arrays, owner, filename):
        priorities = transition_file.require_array(owner, filename, arrays, "priorities",
                                                   (len(experiences),), numpy.float64)
        max_priority = index.get("max_priority")
        if not (priorities > 0).all() or not numpy.isfinite(priorities).all() \
                or not isinstance(max_priority, float) or not max_priority > 0:
            raise ValueError(f"{owner}: {filename} has invalid priorities (they must be finite and > 0)")
        memory = PrioritizedBuffer(capacity=self.capacity, initial_max_priority=max_priority)
        for experience, priority in zip(experiences, priorities.tolist()):
            memory.append(experience, priority)
        return memory
