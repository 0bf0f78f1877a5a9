import gymnasium
import numpy
import pytest

from kusari.rl.envs import SerialVectorEnv, VectorEnv


class CounterEnv(gymnasium.Env):
    """Counts its steps; the start value and a reward noise come from the env's seeded np_random."""

    observation_space = gymnasium.spaces.Box(-numpy.inf, numpy.inf, (2,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, length=3):
        self.length = length

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.start = float(self.np_random.integers(100))
        self.steps = 0
        return self._obs(), {"start": self.start}

    def step(self, action):
        self.steps += 1
        reward = float(action) + float(self.np_random.random())
        return self._obs(), reward, self.steps >= self.length, False, {"steps": self.steps}

    def _obs(self):
        return numpy.array([self.start, self.steps], numpy.float32)


def make(lengths=(3, 5)):
    return SerialVectorEnv([CounterEnv(n) for n in lengths])


def test_reset_and_step_follow_gymnasium_per_env():
    env = make()
    assert isinstance(env, VectorEnv) and env.num_envs == 2
    assert env.action_space == CounterEnv.action_space
    obs = env.reset()
    assert isinstance(obs, tuple) and len(obs) == 2 and obs[0].shape == (2,)
    obs, rewards, terminateds, truncateds, infos = env.step([1, 0])
    assert [o[1] for o in obs] == [1, 1]
    assert 1 <= rewards[0] < 2 and 0 <= rewards[1] < 1
    assert terminateds == (False, False) and truncateds == (False, False)
    assert infos == ({"steps": 1}, {"steps": 1})


def test_reset_mask_true_keeps_that_env_running():
    env = make()
    env.reset()
    env.step([0, 0])
    obs = env.reset([True, False])  # PFRL's mask: True = do not reset
    assert obs[0][1] == 1 and obs[1][1] == 0


def test_seed_reaches_each_env_at_its_next_reset_only():
    env, other = make(), make()
    env.seed(7)
    other.seed([7, 8])  # an int s seeds env i with s + i
    first = env.reset()
    numpy.testing.assert_array_equal(first, other.reset())
    rewards = env.step([0, 0])[1]
    assert rewards == other.step([0, 0])[1]
    env.seed([7, 8])
    numpy.testing.assert_array_equal(env.reset(), first)  # seeded again: the same starts
    unseeded = [env.reset()[0][0] for _ in range(20)]
    assert len(set(unseeded)) > 1  # a seed is used once


@pytest.mark.parametrize("call, error, match", [
    (lambda env: env.step([0]), ValueError, "got 1 actions for 2 envs"),
    (lambda env: env.reset([True]), ValueError, "mask has 1 entries for 2 envs"),
    (lambda env: env.seed([1, 2, 3]), ValueError, "got 3 seeds for 2 envs"),
    (lambda env: env.seed("1"), TypeError, "seeds must be None, an int or a sequence"),
])
def test_bad_arguments_name_the_counts(call, error, match):
    env = make()
    env.reset()
    with pytest.raises(error, match=match):
        call(env)


def test_step_or_partial_reset_before_reset_is_an_error():
    env = make()
    with pytest.raises(RuntimeError, match=r"envs \[0, 1\] were never reset"):
        env.step([0, 0])
    with pytest.raises(ValueError, match=r"keeps envs \[0\] running, but they were never reset"):
        env.reset([True, False])


def test_close_closes_every_env_once_and_later_calls_fail():
    envs = [CounterEnv(), CounterEnv()]
    closed = []
    for e in envs:
        e.close = lambda e=e: closed.append(e)
    with SerialVectorEnv(envs) as env:
        env.reset()
    env.close()
    assert closed == envs and env.closed
    with pytest.raises(RuntimeError, match="SerialVectorEnv.step: the vector env is closed"):
        env.step([0, 0])


class FailingEnv(CounterEnv):
    def step(self, action):
        raise KeyError("boom")


def test_an_exception_in_an_env_propagates_unchanged():
    env = SerialVectorEnv([CounterEnv(), FailingEnv()])
    env.reset()
    with pytest.raises(KeyError, match="boom"):
        env.step([0, 0])


def test_empty_envs_is_an_error():
    with pytest.raises(ValueError, match="SerialVectorEnv: envs is empty"):
        SerialVectorEnv([])


def test_an_action_of_the_wrong_kind_is_a_clear_error():
    env = SerialVectorEnv([gymnasium.make("Pendulum-v1") for _ in range(2)])
    env.reset()
    with pytest.raises(TypeError, match="Pendulum-v1: .*discrete-action agent"):
        env.step([0, 1])
    env.close()
