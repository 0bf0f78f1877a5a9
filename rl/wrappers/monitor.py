"""Monitor: record each episode's return, length and end time into a JSON file in a folder."""
import json
import os
import tempfile
import time
from typing import Any

import gymnasium

STATS_FILE = "monitor.stats.json"


class Monitor(gymnasium.Wrapper):
    """Writes episode statistics to ``<directory>/monitor.stats.json`` after every episode.

    An episode ends at ``terminated or truncated``, or when ``reset`` is called in the middle of
    one (a training loop's own ``max_episode_len``): that partial episode is recorded too, as
    PFRL's Monitor does for its ContinuingTimeLimit. The file, rewritten atomically (a temporary
    file, then a rename) so a reader never sees half of it, holds ``initial_reset_timestamp``,
    ``timestamps``, ``episode_lengths``, ``episode_rewards`` and ``episode_terminated`` (True
    when the episode ended by ``terminated``), one entry per episode. Videos (gym's Monitor
    recorded them; gymnasium's RecordVideo needs moviepy) are not recorded.

    Parameters
    ----------
    env : gymnasium.Env
    directory : str
        Created if missing (with its parents).
    force : bool
        Start afresh when the folder already has a statistics file.
    resume : bool
        Append to an existing statistics file. Without ``force`` or ``resume``, an existing file
        is an error (FileExistsError), so two monitors never overwrite each other.
    """

    def __init__(self, env: gymnasium.Env, directory: str, force: bool = False, resume: bool = False):
        super().__init__(env)
        if force and resume:
            raise ValueError("Monitor: force and resume exclude each other")
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.path = os.path.join(directory, STATS_FILE)
        self._stats = {"initial_reset_timestamp": None, "timestamps": [], "episode_lengths": [],
                       "episode_rewards": [], "episode_terminated": []}
        if os.path.exists(self.path) and not force:
            if not resume:
                raise FileExistsError(f"Monitor: {self.path} exists; pass resume=True to append to "
                                      "it or force=True to replace it")
            with open(self.path) as f:
                loaded = json.load(f)
            if set(loaded) != set(self._stats):
                raise ValueError(f"Monitor: {self.path} is not a Monitor statistics file (keys "
                                 f"{sorted(loaded)})")
            self._stats = loaded
        self._episode_len = 0
        self._episode_reward = 0.0
        self._write()

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if self._episode_len > 0:
            self._end_episode(terminated=False)
        if self._stats["initial_reset_timestamp"] is None:
            self._stats["initial_reset_timestamp"] = time.time()
        return self.env.reset(seed=seed, options=options)

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self._episode_len += 1
        self._episode_reward += float(reward)
        if terminated or truncated:
            self._end_episode(bool(terminated))
        return obs, reward, terminated, truncated, info

    def close(self) -> None:
        if self._episode_len > 0:
            self._end_episode(terminated=False)
        super().close()

    def get_episode_rewards(self) -> list[float]:
        """The return of each recorded episode."""
        return list(self._stats["episode_rewards"])

    def get_episode_lengths(self) -> list[int]:
        """The length of each recorded episode."""
        return list(self._stats["episode_lengths"])

    def _end_episode(self, terminated: bool) -> None:
        self._stats["timestamps"].append(time.time())
        self._stats["episode_lengths"].append(self._episode_len)
        self._stats["episode_rewards"].append(self._episode_reward)
        self._stats["episode_terminated"].append(terminated)
        self._episode_len = 0
        self._episode_reward = 0.0
        self._write()

    def _write(self) -> None:
        fd, tmp = tempfile.mkstemp(prefix=STATS_FILE + ".", suffix=".tmp", dir=self.directory)
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(self._stats, f)
            os.replace(tmp, self.path)
        except BaseException:
            os.unlink(tmp)
            raise
