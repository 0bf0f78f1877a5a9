"""VectorEnv, the interface of a batch of gymnasium envs stepped together, and EnvBatch, its base.

PFRL's ``VectorEnv.step`` returns ``(obs, reward, done, info)`` and marks a time-limit end with
``info['needs_reset']``; ours follows gymnasium 1.x instead:

- ``step(actions) -> (obs, rewards, terminateds, truncateds, infos)``, five tuples of
  ``num_envs`` entries. PFRL's ``done`` is ``terminated`` and its ``info['needs_reset']`` is
  ``truncated``.
- ``reset(mask=None) -> obs``, a tuple of ``num_envs`` observations. As in PFRL, ``mask[i]``
  True means *keep* env ``i`` running (its last observation is returned), so the training loop
  passes ``not_end``; None resets every env. Reset infos are dropped.
- ``seed(seeds)`` stores one seed per env; each env receives its seed through gymnasium's
  ``reset(seed=...)`` at its next reset.

Environments never reset themselves: after ``terminated or truncated`` the caller resets them.
"""
from abc import ABCMeta, abstractmethod
from collections.abc import Sequence
from typing import Any

import numpy
from typing_extensions import Self

from kusari.rl.envs._action_kind import check_action_kind


class VectorEnv(metaclass=ABCMeta):
    """``num_envs`` environments stepped together (the interface; see the module docstring).

    Attributes ``action_space``, ``observation_space`` and ``spec`` are env 0's.
    """

    action_space: Any = None
    observation_space: Any = None
    spec: Any = None

    @property
    @abstractmethod
    def num_envs(self) -> int:
        """The number of environments."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether ``close`` was called."""

    @abstractmethod
    def reset(self, mask: Sequence[bool] | None = None) -> tuple[Any, ...]:
        """Reset the envs whose ``mask`` entry is False (all when None); all current observations."""

    @abstractmethod
    def step(self, actions: Sequence[Any]) -> tuple[tuple, tuple, tuple, tuple, tuple]:
        """Step every env: ``(obs, rewards, terminateds, truncateds, infos)``."""

    @abstractmethod
    def seed(self, seeds: None | int | Sequence[int | None] = None) -> None:
        """Seed each env at its next reset."""

    @abstractmethod
    def close(self) -> None:
        """Close every env; a second call does nothing."""

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @property
    def unwrapped(self) -> "VectorEnv":
        """This vector env without wrappers."""
        return self


class EnvBatch(VectorEnv):
    """The bookkeeping that SerialVectorEnv and MultiprocessVectorEnv share.

    It keeps each env's last observation and pending seed and validates calls; subclasses call
    ``_init_state()`` once ``num_envs`` is known and implement ``_reset_envs``, ``_step_envs`` and
    ``_close_envs``.
    """

    _closed = False

    def _init_state(self) -> None:
        self._last_obs: list[Any] = [None] * self.num_envs
        self._was_reset = [False] * self.num_envs
        self._pending_seeds: list[int | None] = [None] * self.num_envs

    @property
    def closed(self) -> bool:
        return self._closed

    @abstractmethod
    def _reset_envs(self, indices: list[int], seeds: list[int | None]) -> list[Any]:
        """Reset the envs ``indices`` (with ``seeds``, None for no seed); their observations."""

    @abstractmethod
    def _step_envs(self, actions: Sequence[Any]) -> list[tuple]:
        """One gymnasium ``step`` result ``(obs, r, terminated, truncated, info)`` per env."""

    @abstractmethod
    def _close_envs(self) -> None:
        """Release the envs."""

    def reset(self, mask: Sequence[bool] | None = None) -> tuple[Any, ...]:
        """Reset the envs whose ``mask`` entry is False (all when ``mask`` is None).

        Parameters
        ----------
        mask : sequence of bool of length ``num_envs``, optional
            True keeps that env running (PFRL's convention: pass ``not_end``).

        Returns
        -------
        tuple of ``num_envs`` observations (the last one of each env kept running)
        """
        self._check_open("reset")
        if mask is None:
            indices = list(range(self.num_envs))
        else:
            if len(mask) != self.num_envs:
                raise ValueError(f"{type(self).__name__}.reset: mask has {len(mask)} entries for "
                                 f"{self.num_envs} envs")
            indices = [i for i, keep in enumerate(mask) if not keep]
            never_reset = [i for i, keep in enumerate(mask) if keep and not self._was_reset[i]]
            if never_reset:
                raise ValueError(f"{type(self).__name__}.reset: mask keeps envs {never_reset} "
                                 "running, but they were never reset")
        if indices:
            seeds = [self._pending_seeds[i] for i in indices]
            for i, obs in zip(indices, self._reset_envs(indices, seeds)):
                self._last_obs[i] = obs
                self._was_reset[i] = True
                self._pending_seeds[i] = None
        return tuple(self._last_obs)

    def step(self, actions: Sequence[Any]) -> tuple[tuple, tuple, tuple, tuple, tuple]:
        """Step every env with its action.

        Parameters
        ----------
        actions : sequence of ``num_envs`` actions

        Returns
        -------
        (obs, rewards, terminateds, truncateds, infos), each a tuple of ``num_envs`` entries
        """
        self._check_open("step")
        if len(actions) != self.num_envs:
            raise ValueError(f"{type(self).__name__}.step: got {len(actions)} actions for "
                             f"{self.num_envs} envs")
        if not all(self._was_reset):
            raise RuntimeError(f"{type(self).__name__}.step: envs "
                               f"{[i for i, r in enumerate(self._was_reset) if not r]} were never "
                               "reset; call reset() first")
        for action in actions:
            check_action_kind(self, action)
        obs, rewards, terminateds, truncateds, infos = zip(*self._step_envs(actions))
        self._last_obs = list(obs)
        return obs, rewards, terminateds, truncateds, infos

    def seed(self, seeds: None | int | Sequence[int | None] = None) -> None:
        """Seed each env at its next reset.

        Parameters
        ----------
        seeds : None, int or sequence of ``num_envs`` ints
            An int ``s`` gives env ``i`` the seed ``s + i`` (gymnasium's vector envs do the
            same; PFRL gave every env the same seed). None leaves the envs unseeded.
        """
        self._check_open("seed")
        if seeds is None:
            seeds = [None] * self.num_envs
        elif isinstance(seeds, (int, numpy.integer)) and not isinstance(seeds, bool):
            seeds = [int(seeds) + i for i in range(self.num_envs)]
        elif isinstance(seeds, (str, bytes)) or not isinstance(seeds, Sequence):
            raise TypeError(f"{type(self).__name__}.seed: seeds must be None, an int or a sequence "
                            f"of {self.num_envs} ints, got {type(seeds).__name__}")
        elif len(seeds) != self.num_envs:
            raise ValueError(f"{type(self).__name__}.seed: got {len(seeds)} seeds for "
                             f"{self.num_envs} envs")
        self._pending_seeds = list(seeds)

    def close(self) -> None:
        """Close every env; a second call does nothing."""
        if not self._closed:
            self._closed = True
            self._close_envs()

    def _check_open(self, method: str) -> None:
        if self._closed:
            raise RuntimeError(f"{type(self).__name__}.{method}: the vector env is closed")
