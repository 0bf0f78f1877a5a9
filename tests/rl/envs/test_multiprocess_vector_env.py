import functools
import os
import signal
import subprocess
import sys
import textwrap
import threading

import cloudpickle
import gymnasium
import numpy
import pytest

from kusari.rl.envs import MultiprocessVectorEnv, SerialVectorEnv

# the workers rebuild these classes from their pickled definition, wherever pytest runs from
cloudpickle.register_pickle_by_value(sys.modules[__name__])


class CounterEnv(gymnasium.Env):
    """Counts its steps; the start value and a reward noise come from the env's seeded np_random."""

    observation_space = gymnasium.spaces.Box(-numpy.inf, numpy.inf, (2,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, length=3, fail_at=None):
        self.length = length
        self.fail_at = fail_at

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.start = float(self.np_random.integers(100))
        self.steps = 0
        return self._obs(), {}

    def step(self, action):
        self.steps += 1
        if self.steps == self.fail_at:
            raise ValueError(f"step {self.steps} fails on purpose")
        reward = float(action) + float(self.np_random.random())
        return self._obs(), reward, self.steps >= self.length, False, {"pid": os.getpid()}

    def _obs(self):
        return numpy.array([self.start, self.steps], numpy.float32)


def in_thread(func, timeout=30):
    """(finished within timeout, the exception func raised or None)."""
    outcome = []

    def run():
        try:
            func()
            outcome.append(None)
        except BaseException as e:  # noqa: BLE001 (handed to the test)
            outcome.append(e)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    return not thread.is_alive(), (outcome[0] if outcome else None)


def rollout(env, n_steps):
    """Observations and rewards of a fixed action sequence, resetting ended envs as the loops do."""
    trajectory = [env.reset()]
    for t in range(n_steps):
        obs, rewards, terminateds, truncateds, _ = env.step([t % 2, (t + 1) % 2])
        trajectory += [obs, rewards]
        trajectory.append(env.reset([not (a or b) for a, b in zip(terminateds, truncateds)]))
    return trajectory


def test_same_seeds_give_the_trajectories_of_serial_vector_env():
    with MultiprocessVectorEnv([functools.partial(CounterEnv, 3), lambda: CounterEnv(4)]) as env:
        assert env.num_envs == 2
        assert env.action_space == CounterEnv.action_space
        assert env.observation_space == CounterEnv.observation_space
        env.seed([3, 4])
        parallel = rollout(env, 12)
        infos = env.step([0, 0])[4]
    serial = SerialVectorEnv([CounterEnv(3), CounterEnv(4)])
    serial.seed([3, 4])
    expected = rollout(serial, 12)
    assert len(parallel) == len(expected)
    for got, want in zip(parallel, expected):
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(want))
    # each env really ran in its own process
    assert len({info["pid"] for info in infos} | {os.getpid()}) == 3


def test_a_killed_worker_is_an_error_naming_the_env_not_a_hang():
    env = MultiprocessVectorEnv([CounterEnv, CounterEnv])
    try:
        env.reset()
        os.kill(env._procs[1].pid, signal.SIGKILL)
        finished, error = in_thread(lambda: env.step([0, 0]))
        assert finished, "step() hung after a worker was killed"
        assert isinstance(error, RuntimeError)
        assert "worker process of env 1" in str(error) and "SIGKILL" in str(error)
        assert env.closed
        assert all(proc.poll() is not None for proc in env._procs)  # the other worker was stopped
    finally:
        env.close()


def test_an_exception_in_a_worker_env_is_raised_with_its_index_and_traceback():
    env = MultiprocessVectorEnv([CounterEnv, functools.partial(CounterEnv, 5, fail_at=2)])
    env.reset()
    env.step([0, 0])
    finished, error = in_thread(lambda: env.step([0, 0]))
    assert finished
    assert isinstance(error, RuntimeError)
    assert "env 1 raised ValueError during step: step 2 fails on purpose" in str(error)
    assert "in step\nValueError: step 2 fails on purpose" in str(error.__cause__)  # the worker's traceback
    assert env.closed
    with pytest.raises(RuntimeError, match="the vector env is closed"):
        env.reset()


def failing_factory():
    raise OSError("no such game")


def test_an_env_fn_that_raises_fails_the_constructor():
    finished, error = in_thread(lambda: MultiprocessVectorEnv([CounterEnv, failing_factory]))
    assert finished
    assert isinstance(error, RuntimeError)
    assert "env 1 raised OSError during creating the env: no such game" in str(error)


def test_bad_env_fns_are_refused_before_starting_workers():
    with pytest.raises(ValueError, match="env_fns is empty"):
        MultiprocessVectorEnv([])
    with pytest.raises(TypeError, match=r"env_fns\[1\] is a CounterEnv, not a callable"):
        MultiprocessVectorEnv([CounterEnv, CounterEnv()])
    with pytest.raises(TypeError, match=r"env_fns\[0\] cannot be pickled"):
        lock = threading.Lock()
        MultiprocessVectorEnv([lambda: lock])


def test_close_stops_the_workers_and_is_idempotent():
    env = MultiprocessVectorEnv([CounterEnv])
    procs = list(env._procs)
    env.close()
    env.close()
    assert all(proc.returncode == 0 for proc in procs)


SCRIPT = """
import gymnasium, numpy

from kusari.rl.envs import MultiprocessVectorEnv

class Env(gymnasium.Env):
    observation_space = gymnasium.spaces.Box(0, 10, (1,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)
    def reset(self, *, seed=None, options=None):
        return numpy.zeros(1, numpy.float32), {}
    def step(self, action):
        return numpy.ones(1, numpy.float32) * action, 1.0, False, False, {}

env = MultiprocessVectorEnv([lambda: Env(), lambda: Env()])
env.reset()
print("rewards", env.step([1, 0])[1])
env.close()
"""


def test_a_script_without_main_guard_and_with_lambdas_works(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent(SCRIPT))
    result = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60,
                            check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("rewards (1.0, 1.0)") == 1  # the script body ran once
