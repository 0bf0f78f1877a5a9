"""DeepMind's Atari preprocessing (Mnih et al., 2015) as gymnasium wrappers, with PFRL's names.

``make_atari`` builds gymnasium's ALE environment one emulator frame per step; ``wrap_deepmind``
adds the rest: episodic life, fire reset, 84x84 grey frames, clipped rewards and a stack of the
last 4 frames whose observations (:class:`LazyFrames`) share their frames, so a replay buffer that
keeps them stores each frame once.

gymnasium's ``ALE/<Game>-v5`` ids default to sticky actions (``repeat_action_probability=0.25``,
Machado et al., 2018) and a frame skip of 4; the DQN papers and PFRL's ``<Game>NoFrameskip-v4``
ids have neither. ``make_atari`` makes a v5 id with ``frameskip=1`` (``MaxAndSkipEnv`` skips) and
``repeat_action_probability=0`` unless told otherwise.
"""
import difflib
from collections import deque
from typing import Any

import gymnasium
import numpy

from kusari.rl.wrappers.frame_stack import FrameStack as _ArrayFrameStack

_DEFAULT_MAX_FRAMES = 30 * 60 * 60  # 30 minutes of play at 60 frames per second


def _import_ale_py():
    try:
        import ale_py
    except ImportError as e:
        raise ImportError("kusari.rl.wrappers.atari_wrappers needs ale-py (it ships the ROMs): "
                          "pip install 'kusari[atari]'") from e
    return ale_py


def _import_cv2():
    try:
        import cv2
    except ImportError as e:
        raise ImportError("kusari.rl.wrappers.atari_wrappers: WarpFrame needs OpenCV: "
                          "pip install 'kusari[atari]'") from e
    return cv2


def make_atari(env_id: str, max_frames: int | None = _DEFAULT_MAX_FRAMES,
               repeat_action_probability: float = 0.0) -> gymnasium.Env:
    """An ALE environment stepping one frame per action, with 1 to 30 no-ops after each reset and
    each action repeated for 4 frames (the last two max-pooled).

    Parameters
    ----------
    env_id : str
        ``'ALE/<Game>-v5'`` (made with ``frameskip=1``) or ``'<Game>NoFrameskip-v4'``.
    max_frames : int or None
        Emulator frames after which an episode is truncated (30 minutes of play by default); None:
        the game's own end only.
    repeat_action_probability : float
        Sticky actions of v5 ids; 0 as in the DQN papers and PFRL.

    Returns
    -------
    gymnasium.Env
        Observations are the ALE's RGB screens, (210, 160, 3) uint8.
    """
    gymnasium.register_envs(_import_ale_py())
    ale_ids = sorted(k for k, spec in gymnasium.registry.items()
                     if str(spec.entry_point).startswith("ale_py"))
    if env_id not in ale_ids:
        close = difflib.get_close_matches(env_id, ale_ids, n=5, cutoff=0.5)
        raise ValueError(f"make_atari: the installed ale-py has no environment {env_id!r}"
                         + (f"; close names: {', '.join(close)}" if close else ""))
    kwargs: dict[str, Any] = {}
    if env_id.endswith("-v5"):
        kwargs = dict(frameskip=1, repeat_action_probability=repeat_action_probability)
    elif "NoFrameskip" not in env_id:
        raise ValueError(f"make_atari: {env_id!r} skips frames itself; give 'ALE/<Game>-v5' or "
                         "'<Game>NoFrameskip-v4' (MaxAndSkipEnv does the skipping)")
    if max_frames is not None:
        if not (isinstance(max_frames, int) and max_frames >= 1):
            raise ValueError(f"make_atari: max_frames must be a positive int or None, got {max_frames!r}")
        kwargs["max_num_frames_per_episode"] = max_frames
    env = gymnasium.make(env_id, **kwargs)
    env = NoopResetEnv(env, noop_max=30)
    return MaxAndSkipEnv(env, skip=4)


def wrap_deepmind(env: gymnasium.Env, episode_life: bool = True, clip_rewards: bool = True,
                  frame_stack: bool = True, scale: bool = False, fire_reset: bool = False,
                  channel_order: str = "chw", flicker: bool = False) -> gymnasium.Env:
    """DeepMind's preprocessing of an env from :func:`make_atari`.

    Parameters
    ----------
    episode_life : bool
        A lost life ends the episode for the agent (training only: evaluation needs whole games).
    clip_rewards : bool
        Rewards become their sign.
    frame_stack : bool
        Observe the last 4 frames as :class:`LazyFrames` (leave it False under a ``VectorFrameStack``).
    scale : bool
        Observations float32 in [0, 1] instead of uint8 (an array: defeats ``LazyFrames``' sharing).
    fire_reset : bool
        Press FIRE after each reset (games that wait for it), in games that have a FIRE action.
    channel_order : {'chw', 'hwc'}
        Frames (1, 84, 84) stacked to (4, 84, 84), or (84, 84, 1) stacked to (84, 84, 4).
    flicker : bool
        Black out each frame with probability 1/2 (the flickering Atari of Hausknecht & Stone, 2015).
    """
    if episode_life:
        env = EpisodicLifeEnv(env)
    if fire_reset and "FIRE" in env.unwrapped.get_action_meanings():
        env = FireResetEnv(env)
    env = WarpFrame(env, channel_order=channel_order)
    if scale:
        env = ScaledFloatFrame(env)
    if clip_rewards:
        env = ClipRewardEnv(env)
    if flicker:
        env = FlickerFrame(env)
    if frame_stack:
        env = FrameStack(env, 4, channel_order=channel_order)
    return env


class NoopResetEnv(gymnasium.Wrapper):
    """After each reset, take the no-op action a random number of times in [1, ``noop_max``]
    (drawn from the env's generator, so seeded resets repeat)."""

    def __init__(self, env: gymnasium.Env, noop_max: int = 30):
        super().__init__(env)
        meanings = env.unwrapped.get_action_meanings()
        if meanings[0] != "NOOP":
            raise ValueError(f"NoopResetEnv: action 0 must be NOOP, the env's actions are {meanings}")
        self.noop_max = noop_max
        self.noop_action = 0

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        obs, info = self.env.reset(seed=seed, options=options)
        for _ in range(int(self.unwrapped.np_random.integers(1, self.noop_max + 1))):
            obs, _, terminated, truncated, info = self.env.step(self.noop_action)
            if terminated or truncated:
                obs, info = self.env.reset(options=options)
        return obs, info


class FireResetEnv(gymnasium.Wrapper):
    """After each reset press FIRE, then UP (some games wait for them before play starts)."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        meanings = env.unwrapped.get_action_meanings()
        if len(meanings) < 3 or meanings[1] != "FIRE":
            raise ValueError(f"FireResetEnv: action 1 must be FIRE (and 3 actions at least), the "
                             f"env's actions are {meanings}")

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        self.env.reset(seed=seed, options=options)
        for action in (1, 2):
            obs, _, terminated, truncated, info = self.env.step(action)
            if terminated or truncated:
                self.env.reset(options=options)
        return obs, info


class EpisodicLifeEnv(gymnasium.Wrapper):
    """A lost life ends the episode (``terminated``, so no bootstrap past it), as in the DQN
    papers; the env is reset only when the game is over, else the next reset takes one no-op."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        self.lives = 0
        self.was_real_done = True

    def step(self, action: Any):
        obs, reward, terminated, truncated, info = self.env.step(action)
        self.was_real_done = terminated or truncated
        lives = self.unwrapped.ale.lives()
        # some games (Qbert) show 0 lives for a few frames after the last; only a drop counts
        if 0 < lives < self.lives:
            terminated = True
        self.lives = lives
        return obs, reward, terminated, truncated, info

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if self.was_real_done or seed is not None:
            obs, info = self.env.reset(seed=seed, options=options)
        else:
            obs, _, terminated, truncated, info = self.env.step(0)
            if terminated or truncated:  # the game ended during the no-op
                obs, info = self.env.reset(options=options)
        self.was_real_done = False
        self.lives = self.unwrapped.ale.lives()
        return obs, info


class MaxAndSkipEnv(gymnasium.Wrapper):
    """Repeat each action for ``skip`` frames (until the episode ends); the observation is the
    pixel-wise max of the last two frames (Atari sprites flicker between frames), the reward the sum."""

    def __init__(self, env: gymnasium.Env, skip: int = 4):
        super().__init__(env)
        if not (isinstance(skip, int) and skip >= 1):
            raise ValueError(f"MaxAndSkipEnv: skip must be a positive int, got {skip!r}")
        self._skip = skip

    def step(self, action: Any):
        total_reward = 0.0
        last_two: deque = deque(maxlen=2)
        for _ in range(self._skip):
            obs, reward, terminated, truncated, info = self.env.step(action)
            last_two.append(obs)
            total_reward += reward
            if terminated or truncated:
                break
        if len(last_two) == 2:
            obs = numpy.maximum(last_two[0], last_two[1])
        return obs, total_reward, terminated, truncated, info


class ClipRewardEnv(gymnasium.RewardWrapper):
    """Rewards become their sign: -1, 0 or 1."""

    def reward(self, reward: float) -> float:
        return float(numpy.sign(reward))


class WarpFrame(gymnasium.ObservationWrapper):
    """RGB screens become 84x84 grey frames (OpenCV's luma, area interpolation), uint8.

    Parameters
    ----------
    channel_order : {'hwc', 'chw'}
        Frames (84, 84, 1) or (1, 84, 84).
    """

    def __init__(self, env: gymnasium.Env, channel_order: str = "hwc"):
        super().__init__(env)
        if channel_order not in ("hwc", "chw"):
            raise ValueError(f"WarpFrame: channel_order must be 'hwc' or 'chw', got {channel_order!r}")
        space = env.observation_space
        if not (isinstance(space, gymnasium.spaces.Box) and len(space.shape) == 3 and space.shape[2] == 3):
            raise ValueError(f"WarpFrame: observations must be RGB screens (H, W, 3), got {space}")
        self._cv2 = _import_cv2()
        self.width = self.height = 84
        self.channel_order = channel_order
        shape = (84, 84, 1) if channel_order == "hwc" else (1, 84, 84)
        self.observation_space = gymnasium.spaces.Box(0, 255, shape, dtype=numpy.uint8)

    def observation(self, frame: numpy.ndarray) -> numpy.ndarray:
        cv2 = self._cv2
        grey = cv2.cvtColor(frame, cv2.COLOR_RGB2GRAY)
        # resized straight into the frame's array: a reshaped view would keep a second array
        # object (96 B) alive per frame, 0.1 GB in a buffer of 10**6 frames
        out = numpy.empty(self.observation_space.shape, numpy.uint8)
        cv2.resize(grey, (self.width, self.height), dst=out.reshape(self.height, self.width),
                   interpolation=cv2.INTER_AREA)
        return out


class ScaledFloatFrame(gymnasium.ObservationWrapper):
    """uint8 observations become float32 in [0, 1]."""

    def __init__(self, env: gymnasium.Env):
        super().__init__(env)
        self.observation_space = gymnasium.spaces.Box(0.0, 1.0, env.observation_space.shape,
                                                      dtype=numpy.float32)

    def observation(self, observation: numpy.ndarray) -> numpy.ndarray:
        return numpy.asarray(observation, dtype=numpy.float32) / 255.0


class FlickerFrame(gymnasium.ObservationWrapper):
    """Each observation is all zeros with probability 1/2 (drawn from the env's generator)."""

    def observation(self, observation: numpy.ndarray) -> numpy.ndarray:
        if self.unwrapped.np_random.uniform() < 0.5:
            return numpy.zeros_like(observation)
        return observation


class LazyFrames:
    """Frames that form one stacked observation, concatenated only when read as an array.

    Consecutive observations of :class:`FrameStack` hold the same frame objects, so keeping many
    of them (a replay buffer) keeps each frame once. ``numpy.asarray(lazy_frames)`` gives the stack.

    Parameters
    ----------
    frames : list of numpy.ndarray
        Oldest first, all of one shape and dtype.
    stack_axis : int
        The axis to concatenate them along.
    """

    __slots__ = ("_frames", "stack_axis")

    def __init__(self, frames: list, stack_axis: int = 2):
        self._frames = tuple(frames)
        self.stack_axis = stack_axis

    def __array__(self, dtype=None, copy=None) -> numpy.ndarray:
        out = numpy.concatenate(self._frames, axis=self.stack_axis)
        return out if dtype is None else out.astype(dtype, copy=False)

    def __len__(self) -> int:
        return len(self._frames)

    def __getitem__(self, i: int) -> numpy.ndarray:
        return self._frames[i]

    @property
    def shape(self) -> tuple:
        """The stacked observation's shape."""
        shape = list(self._frames[0].shape)
        shape[self.stack_axis] *= len(self._frames)
        return tuple(shape)

    @property
    def dtype(self) -> numpy.dtype:
        return self._frames[0].dtype


class FrameStack(_ArrayFrameStack):
    """:class:`kusari.rl.wrappers.FrameStack` whose observations are :class:`LazyFrames`: the
    last ``k`` frames, shared with the other observations that contain them.

    Parameters
    ----------
    env : gymnasium.Env
    k : int
    channel_order : {'hwc', 'chw'}
        Stack along axis 2 ('hwc') or 0 ('chw').
    """

    def _stacked(self) -> LazyFrames:
        return LazyFrames(list(self.frames), stack_axis=self.stack_axis)
