import json
import os

import gymnasium
import numpy
import pytest

from kusari.rl.envs import SerialVectorEnv
from kusari.rl.wrappers import (
    CastObservation,
    CastObservationToFloat32,
    FrameStack,
    Monitor,
    NormalizeActionSpace,
    RandomizeAction,
    ScaleReward,
    VectorFrameStack,
)


class ImageEnv(gymnasium.Env):
    """uint8 frames of shape (1, 2, 3) filled with the step count; episodes of ``length`` steps."""

    observation_space = gymnasium.spaces.Box(0, 255, (1, 2, 3), numpy.uint8)
    action_space = gymnasium.spaces.Discrete(3)

    def __init__(self, length=4, truncate=False):
        self.length = length
        self.truncate = truncate
        self.actions = []

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.steps = 0
        return self._obs(), {}

    def step(self, action):
        self.actions.append(action)
        self.steps += 1
        end = self.steps >= self.length
        return self._obs(), 2.0, end and not self.truncate, end and self.truncate, {}

    def _obs(self):
        return numpy.full((1, 2, 3), self.steps % 256, numpy.uint8)


class BoxActionEnv(ImageEnv):
    action_space = gymnasium.spaces.Box(numpy.array([-2, 0], numpy.float32),
                                        numpy.array([2, 10], numpy.float32))


def test_cast_observation_casts_values_and_space_and_keeps_the_original():
    env = CastObservation(ImageEnv(), numpy.float64)
    obs, _ = env.reset()
    obs, *_ = env.step(0)
    assert obs.dtype == numpy.float64 and env.observation_space.dtype == numpy.float64
    assert env.original_observation.dtype == numpy.uint8
    numpy.testing.assert_array_equal(obs, env.original_observation)
    env = CastObservationToFloat32(ImageEnv())
    assert env.reset()[0].dtype == numpy.float32 and env.observation_space.dtype == numpy.float32


def test_scale_reward():
    env = ScaleReward(ImageEnv(), 0.25)
    env.reset()
    assert env.step(0)[1] == 0.5 and env.original_reward == 2.0


def test_normalize_action_space_maps_minus_one_one_onto_the_bounds():
    inner = BoxActionEnv()
    env = NormalizeActionSpace(inner)
    assert env.action_space == gymnasium.spaces.Box(-1, 1, (2,), numpy.float32)
    env.reset()
    for action, expected in (([-1, -1], [-2, 0]), ([1, 1], [2, 10]), ([0, 0.5], [0, 7.5])):
        env.step(numpy.array(action, numpy.float32))
        numpy.testing.assert_allclose(inner.actions[-1], expected)
        assert inner.actions[-1].dtype == numpy.float32


def test_normalize_action_space_refuses_discrete_and_unbounded_spaces():
    with pytest.raises(TypeError, match="NormalizeActionSpace: the action space must be a Box"):
        NormalizeActionSpace(ImageEnv())
    env = BoxActionEnv()
    env.action_space = gymnasium.spaces.Box(-numpy.inf, 1, (1,), numpy.float32)
    with pytest.raises(ValueError, match="infinite bounds"):
        NormalizeActionSpace(env)


def test_randomize_action_fraction_and_seeding():
    inner = ImageEnv(length=1000)
    env = RandomizeAction(inner, 0.0)
    env.reset()
    for _ in range(50):
        env.step(1)
    assert inner.actions == [1] * 50

    def random_actions(seed):
        inner = ImageEnv(length=1000)
        env = RandomizeAction(inner, 0.5)
        env.reset(seed=seed)
        for _ in range(400):
            env.step(1)
        return inner.actions

    actions = random_actions(3)
    assert set(actions) == {0, 1, 2}
    assert 0.6 < actions.count(1) / len(actions) < 0.75  # 1/2 kept + 1/2 * 1/3 drawn as 1
    assert random_actions(3) == actions and random_actions(4) != actions
    big = random_actions(2 ** 40 + 3)   # gymnasium allows seeds past RandomState's 2**32 (evaluation seeds are)
    assert random_actions(2 ** 40 + 3) == big and random_actions(2 ** 40 + 4) != big
    with pytest.raises(ValueError, match=r"random_fraction must be in \[0, 1\], got 1.5"):
        RandomizeAction(ImageEnv(), 1.5)
    with pytest.raises(TypeError, match="only a Discrete action space"):
        RandomizeAction(BoxActionEnv(), 0.1)


def test_frame_stack_concatenates_the_last_k_frames_along_the_channel_axis():
    env = FrameStack(ImageEnv(), 3, channel_order="chw")
    assert env.observation_space.shape == (3, 2, 3) and env.observation_space.dtype == numpy.uint8
    obs, _ = env.reset()
    numpy.testing.assert_array_equal(obs[:, 0, 0], [0, 0, 0])
    env.step(0)
    obs = env.step(0)[0]
    assert obs.shape == (3, 2, 3) and isinstance(obs, numpy.ndarray)
    numpy.testing.assert_array_equal(obs[:, 0, 0], [0, 1, 2])
    hwc = FrameStack(ImageEnv(), 2)  # PFRL's default: axis 2
    assert hwc.reset()[0].shape == (1, 2, 6)
    with pytest.raises(ValueError, match="channel_order must be 'hwc' or 'chw'"):
        FrameStack(ImageEnv(), 2, channel_order="nchw")


def test_vector_frame_stack_refills_only_the_envs_it_resets():
    env = VectorFrameStack(SerialVectorEnv([ImageEnv(2), ImageEnv(5)]), 2, stack_axis=0)
    assert env.observation_space.shape == (2, 2, 3) and env.num_envs == 2
    env.reset()
    env.step([0, 0])
    obs, _, terminateds, _, _ = env.step([0, 0])
    assert terminateds == (True, False)
    numpy.testing.assert_array_equal([o[:, 0, 0] for o in obs], [[1, 2], [1, 2]])
    obs = env.reset([False, True])
    numpy.testing.assert_array_equal([o[:, 0, 0] for o in obs], [[0, 0], [1, 2]])
    with pytest.raises(ValueError, match="stack axis 3 is out of range"):
        VectorFrameStack(SerialVectorEnv([ImageEnv()]), 2, stack_axis=3)


def read_stats(directory):
    with open(os.path.join(directory, "monitor.stats.json")) as f:
        return json.load(f)


def test_monitor_records_each_episode_including_one_cut_by_reset(tmp_path):
    env = Monitor(ImageEnv(length=2, truncate=True), str(tmp_path / "monitor"))
    assert read_stats(env.directory)["episode_lengths"] == []
    env.reset()
    env.step(0)
    env.step(0)  # truncated: the episode ends
    stats = read_stats(env.directory)
    assert stats["episode_lengths"] == [2] and stats["episode_rewards"] == [4.0]
    assert stats["episode_terminated"] == [False]
    env.reset()
    env.step(0)
    env.reset()  # cut by the training loop's own limit: still recorded
    env.step(0)
    env.close()  # the episode in progress is recorded on close
    stats = read_stats(env.directory)
    assert stats["episode_lengths"] == [2, 1, 1] and len(stats["timestamps"]) == 3
    assert env.get_episode_rewards() == [4.0, 2.0, 2.0]
    assert sorted(os.listdir(env.directory)) == ["monitor.stats.json"]  # no temporary file left


def test_monitor_refuses_to_overwrite_unless_asked(tmp_path):
    env = Monitor(ImageEnv(length=1), str(tmp_path))
    env.reset()
    env.step(0)
    with pytest.raises(FileExistsError, match="monitor.stats.json exists; pass resume=True"):
        Monitor(ImageEnv(), str(tmp_path))
    resumed = Monitor(ImageEnv(length=1), str(tmp_path), resume=True)
    resumed.reset()
    resumed.step(0)
    assert read_stats(tmp_path)["episode_lengths"] == [1, 1]
    Monitor(ImageEnv(), str(tmp_path), force=True)
    assert read_stats(tmp_path)["episode_lengths"] == []
