"""DeepMind's Atari wrappers: each on a scripted fake ALE env (exact frames, rewards, lives), and
the whole pipeline on gymnasium's Pong (skipped without ale-py)."""
import importlib.util
import sys

import gymnasium
import numpy
import pytest

pytest.importorskip("cv2")
from kusari.rl.wrappers import atari_wrappers as aw  # noqa: E402

requires_ale = pytest.mark.skipif(importlib.util.find_spec("ale_py") is None,
                                  reason="ale-py is absent: pip install 'kusari[atari]'")


class _FakeALE:
    def __init__(self, env):
        self.env = env

    def lives(self):
        return self.env.lives


class FakeAtari(gymnasium.Env):
    """Frame t is filled with t % 256 (RGB 210x160); reward t at frame t; a life is lost at each
    frame in ``life_loss_frames``; the game ends at ``game_over_frame``. Records actions."""

    observation_space = gymnasium.spaces.Box(0, 255, (210, 160, 3), numpy.uint8)
    action_space = gymnasium.spaces.Discrete(4)

    def __init__(self, life_loss_frames=(), game_over_frame=10**9, lives=3):
        self.life_loss_frames = set(life_loss_frames)
        self.game_over_frame = game_over_frame
        self.initial_lives = lives
        self.ale = _FakeALE(self)
        self.actions, self.resets = [], 0

    def get_action_meanings(self):
        return ["NOOP", "FIRE", "UP", "DOWN"]

    def _frame(self):
        return numpy.full((210, 160, 3), self.t % 256, numpy.uint8)

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.t, self.lives = 0, self.initial_lives
        self.resets += 1
        return self._frame(), {}

    def step(self, action):
        self.actions.append(int(action))
        self.t += 1
        if self.t in self.life_loss_frames:
            self.lives -= 1
        return self._frame(), float(self.t), self.t >= self.game_over_frame, False, {}


def test_max_and_skip_repeats_the_action_sums_rewards_and_pools_the_last_two_frames():
    env = aw.MaxAndSkipEnv(FakeAtari(), skip=4)
    env.reset(seed=0)
    obs, reward, terminated, truncated, _ = env.step(3)
    assert env.unwrapped.actions == [3, 3, 3, 3]
    assert reward == 1 + 2 + 3 + 4 and not terminated
    assert (obs == 4).all()  # max of frames 3 and 4


def test_max_and_skip_stops_at_the_episode_end():
    env = aw.MaxAndSkipEnv(FakeAtari(game_over_frame=6), skip=4)
    env.reset(seed=0)
    env.step(0)
    obs, reward, terminated, _, _ = env.step(0)
    assert len(env.unwrapped.actions) == 6 and reward == 5 + 6 and terminated
    assert (obs == 6).all()


def test_noop_reset_takes_1_to_noop_max_noops_repeatably():
    counts = []
    for seed in (0, 0, 1, 2, 3):
        env = aw.NoopResetEnv(FakeAtari(), noop_max=30)
        obs, _ = env.reset(seed=seed)
        n = len(env.unwrapped.actions)
        assert 1 <= n <= 30 and set(env.unwrapped.actions) == {0} and (obs == n).all()
        counts.append(n)
    assert counts[0] == counts[1] and len(set(counts)) > 1


def test_episodic_life_ends_the_episode_at_a_life_loss_and_resets_only_at_game_over():
    env = aw.EpisodicLifeEnv(FakeAtari(life_loss_frames=(3,), game_over_frame=5))
    env.reset(seed=0)
    assert [env.step(2)[2] for _ in range(3)] == [False, False, True]
    env.reset()
    assert env.unwrapped.resets == 1 and env.unwrapped.actions[-1] == 0  # a no-op, not a reset
    assert env.step(2)[2] and env.was_real_done  # frame 5: game over
    env.reset()
    assert env.unwrapped.resets == 2


def test_fire_reset_presses_fire_then_up_and_refuses_games_without_fire():
    env = aw.FireResetEnv(FakeAtari())
    env.reset(seed=0)
    assert env.unwrapped.actions == [1, 2]
    no_fire = FakeAtari()
    no_fire.get_action_meanings = lambda: ["NOOP", "UP", "DOWN"]
    with pytest.raises(ValueError, match=r"FireResetEnv: action 1 must be FIRE.*'UP'"):
        aw.FireResetEnv(no_fire)


def test_clip_reward_gives_the_sign():
    env = aw.ClipRewardEnv(FakeAtari())
    assert [env.reward(r) for r in (-3.5, 0.0, 0.2, 7)] == [-1.0, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("channel_order, shape", [("chw", (1, 84, 84)), ("hwc", (84, 84, 1))])
def test_warp_frame_is_84x84_grey_uint8(channel_order, shape):
    import cv2
    env = aw.WarpFrame(FakeAtari(), channel_order=channel_order)
    rgb = numpy.random.RandomState(0).randint(0, 256, (210, 160, 3)).astype(numpy.uint8)
    out = env.observation(rgb)
    expected = cv2.resize(cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY), (84, 84), interpolation=cv2.INTER_AREA)
    assert out.shape == shape == env.observation_space.shape and out.dtype == numpy.uint8
    numpy.testing.assert_array_equal(out.reshape(84, 84), expected)
    with pytest.raises(ValueError, match="WarpFrame: channel_order"):
        aw.WarpFrame(FakeAtari(), channel_order="cwh")


def test_frame_stack_observations_share_their_frames():
    env = aw.FrameStack(aw.WarpFrame(FakeAtari(), channel_order="chw"), 4, channel_order="chw")
    first, _ = env.reset(seed=0)
    assert isinstance(first, aw.LazyFrames) and first.shape == (4, 84, 84) == env.observation_space.shape
    assert all(first[i] is first[0] for i in range(4))  # the reset frame fills every slot once
    second = env.step(0)[0]
    assert all(second[i] is first[i + 1] for i in range(3))
    stacked = numpy.asarray(second)
    assert stacked.shape == (4, 84, 84) and stacked.dtype == numpy.uint8
    assert [int(stacked[i, 0, 0]) for i in range(4)] == [0, 0, 0, 1]
    assert numpy.asarray(second, dtype=numpy.float32).dtype == numpy.float32


def test_wrap_deepmind_scale_and_flicker():
    env = aw.wrap_deepmind(aw.MaxAndSkipEnv(FakeAtari(), 4), episode_life=False, scale=True, flicker=True)
    env.reset(seed=0)
    frames = [numpy.asarray(env.step(0)[0])[-1] for _ in range(40)]
    assert all(f.dtype == numpy.float32 and f.max() <= 1 for f in frames)
    blacked = sum(not f.any() for f in frames)
    assert 5 < blacked < 35  # about half of the 40 frames


def test_missing_ale_py_names_the_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "ale_py", None)  # import ale_py raises ImportError
    with pytest.raises(ImportError, match=r"kusari\[atari\]"):
        aw.make_atari("ALE/Pong-v5")


@requires_ale
def test_unknown_id_lists_close_names():
    with pytest.raises(ValueError, match=r"no environment 'ALE/Pongg-v5'; close names: ALE/Pong-v5"):
        aw.make_atari("ALE/Pongg-v5")
    with pytest.raises(ValueError, match="skips frames itself"):
        aw.make_atari("Pong-v4")


@requires_ale
def test_pong_pipeline_is_deterministic_and_truncates_at_max_frames():
    def rollout():
        env = aw.wrap_deepmind(aw.make_atari("ALE/Pong-v5", max_frames=400))
        env.action_space.seed(0)
        obs, _ = env.reset(seed=0)
        observations, steps = [numpy.asarray(obs)], 0
        while True:
            obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
            steps += 1
            assert reward in (-1.0, 0.0, 1.0)
            observations.append(numpy.asarray(obs))
            if terminated or truncated:
                return numpy.stack(observations), steps, truncated

    a, steps, truncated = rollout()
    b, _, _ = rollout()
    assert a.shape[1:] == (4, 84, 84) and a.dtype == numpy.uint8
    assert truncated and steps <= 100  # 400 frames, 4 per step, the reset's no-ops among them
    numpy.testing.assert_array_equal(a, b)
    assert len(numpy.unique(a[-1])) > 1  # a screen, not a blank


def test_wrap_deepmind_fire_reset_only_where_there_is_fire():
    env = aw.wrap_deepmind(FakeAtari(), fire_reset=True, frame_stack=False)
    assert any(isinstance(e, aw.FireResetEnv) for e in _chain(env))
    no_fire = FakeAtari()
    no_fire.get_action_meanings = lambda: ["NOOP", "UP", "DOWN"]
    env = aw.wrap_deepmind(no_fire, fire_reset=True, frame_stack=False)
    assert not any(isinstance(e, aw.FireResetEnv) for e in _chain(env))


def _chain(env):
    while isinstance(env, gymnasium.Wrapper):
        yield env
        env = env.env
