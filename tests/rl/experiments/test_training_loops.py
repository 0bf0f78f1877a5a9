import os
import sys

import cloudpickle
import gymnasium
import numpy
import pytest

from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.envs import MultiprocessVectorEnv, SerialVectorEnv
from kusari.rl.experiments import (
    EvaluationHook,
    batch_run_evaluation_episodes,
    eval_performance,
    run_evaluation_episodes,
    train_agent_batch_with_evaluation,
    train_agent_with_evaluation,
)

cloudpickle.register_pickle_by_value(sys.modules[__name__])  # for MultiprocessVectorEnv's workers

HEADER = ["steps", "episodes", "elapsed", "mean", "median", "stdev", "max", "min", "average_q", "n_updates"]


class CounterEnv(gymnasium.Env):
    """Deterministic: reward ``action + 1``; episodes of ``length`` steps, terminated or truncated."""

    observation_space = gymnasium.spaces.Box(0, 1000, (1,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, length=5, truncate=False, fail_at=None):
        self.length, self.truncate, self.fail_at = length, truncate, fail_at
        self.total_steps = 0

    def reset(self, *, seed=None, options=None):
        super().reset(seed=seed)
        self.steps = 0
        return numpy.zeros(1, numpy.float32), {}

    def step(self, action):
        self.steps += 1
        self.total_steps += 1
        if self.total_steps == self.fail_at:
            raise RuntimeError("the env broke")
        end = self.steps >= self.length
        obs = numpy.array([self.steps], numpy.float32)
        return obs, float(action) + 1, end and not self.truncate, end and self.truncate, {}


class RecordingAgent(AttributeSavingMixin, BatchAgent):
    """Acts 0 until it has observed ``switch_at`` training steps, then 1; records every call."""

    saved_attributes = ("t",)

    def __init__(self, switch_at=25):
        self.t = 0
        self.switch_at = switch_at
        self.act_modes = []
        self.observed = []

    def batch_act(self, batch_obs):
        self.act_modes.append(self.training)
        return [int(self.t >= self.switch_at)] * len(batch_obs)

    def batch_observe(self, batch_obs, batch_reward, batch_done, batch_reset):
        self.observed.append((self.training, tuple(map(bool, batch_done)), tuple(map(bool, batch_reset))))
        if self.training:
            self.t += len(batch_obs)

    def get_statistics(self):
        return [("average_q", self.t / 2), ("n_updates", self.t)]


def read_scores(outdir):
    with open(os.path.join(outdir, "scores.txt")) as f:
        lines = f.read().splitlines()
    rows = [dict(zip(lines[0].split("\t"), map(float, line.split("\t")))) for line in lines[1:]]
    return lines[0].split("\t"), rows


def saved_t(dirname):
    agent = RecordingAgent()
    agent.load(dirname)
    return agent.t


def train(outdir, agent=None, env=None, **kwargs):
    agent = agent or RecordingAgent()
    kwargs = {"steps": 40, "eval_n_steps": None, "eval_n_episodes": 1, "eval_interval": 10, **kwargs}
    return train_agent_with_evaluation(agent, env or CounterEnv(), outdir=str(outdir), **kwargs)


def test_scores_rows_saved_agents_and_history(tmp_path):
    _, history = train(tmp_path)
    header, rows = read_scores(tmp_path)
    assert header == HEADER
    assert [r["steps"] for r in rows] == [10, 20, 30, 40]
    assert [r["episodes"] for r in rows] == [2, 4, 6, 8]
    assert [r["mean"] for r in rows] == [5, 5, 10, 10]  # the agent switches to action 1 at t=25
    assert [r["n_updates"] for r in rows] == [10, 20, 30, 40]
    assert [r["average_q"] for r in rows] == [5, 10, 15, 20]
    assert [(h["steps"], h["episodes"], h["eval_score"], h["n_updates"]) for h in history] == [
        (10, 2, 5, 10), (20, 4, 5, 20), (30, 6, 10, 30), (40, 8, 10, 40)]
    assert saved_t(tmp_path / "best") == 30  # the first evaluation that beat 5
    assert saved_t(tmp_path / "40_finish") == 40


def test_evaluation_runs_in_eval_mode_and_does_not_count_as_training(tmp_path):
    agent, _ = train(tmp_path)
    assert agent.act_modes.count(True) == 40
    assert agent.act_modes.count(False) == 4 * 5  # four evaluations of one 5-step episode
    assert sum(1 for training, _, _ in agent.observed if not training) == 20
    assert agent.t == 40


def test_successful_score_stops_training_early(tmp_path):
    agent, history = train(tmp_path, successful_score=10)
    assert [h["steps"] for h in history] == [10, 20, 30]
    assert agent.t == 30
    assert os.path.isfile(tmp_path / "30_finish" / "agent.npz")
    assert not os.path.exists(tmp_path / "40_finish")


def test_resume_with_step_offset_appends_to_scores(tmp_path):
    train(tmp_path, steps=20)
    agent = RecordingAgent()
    agent.load(str(tmp_path / "20_finish"))
    _, history = train(tmp_path, agent=agent, steps=40, step_offset=20)
    header, rows = read_scores(tmp_path)
    assert header == HEADER
    assert [r["steps"] for r in rows] == [10, 20, 30, 40]
    assert [h["steps"] for h in history] == [30, 40]
    assert agent.t == 40
    assert saved_t(tmp_path / "best") == 30


def test_checkpoints_every_checkpoint_freq_steps(tmp_path):
    train(tmp_path, steps=20, checkpoint_freq=10)
    assert saved_t(tmp_path / "10_checkpoint") == 10
    assert saved_t(tmp_path / "20_checkpoint") == 20


@pytest.mark.parametrize("env, max_len, expected", [
    (CounterEnv(3), None, [(True, False) if t % 3 == 0 else (False, False) for t in range(1, 7)]),
    (CounterEnv(3, truncate=True), None, [(False, t % 3 == 0) for t in range(1, 7)]),
    (CounterEnv(5), 2, [(False, t % 2 == 0) for t in range(1, 7)]),
])
def test_terminated_is_done_and_truncated_or_the_loop_limit_is_reset(tmp_path, env, max_len, expected):
    agent, _ = train(tmp_path, env=env, steps=6, eval_interval=100, train_max_episode_len=max_len)
    assert [(done[0], reset[0]) for training, done, reset in agent.observed if training] == expected


def test_a_failure_saves_the_agent_and_reraises(tmp_path):
    with pytest.raises(RuntimeError, match="the env broke"):
        train(tmp_path, env=CounterEnv(fail_at=7))
    assert saved_t(tmp_path / "6_except") == 6


def test_evaluation_hooks_get_the_statistics(tmp_path):
    class Hook(EvaluationHook):
        support_train_agent = True

        def __init__(self):
            self.calls = []

        def __call__(self, env, agent, evaluator, step, eval_stats, agent_stats, env_stats):
            self.calls.append((step, eval_stats["mean"], agent_stats))

    hook = Hook()
    train(tmp_path, steps=20, evaluation_hooks=[hook])
    assert hook.calls == [(10, 5, [("average_q", 5), ("n_updates", 10)]),
                          (20, 5, [("average_q", 10), ("n_updates", 20)])]
    with pytest.raises(ValueError, match="does not support it"):
        train_agent_batch_with_evaluation(RecordingAgent(), SerialVectorEnv([CounterEnv()]), 10, None, 1,
                                          10, str(tmp_path), evaluation_hooks=[hook])


@pytest.mark.parametrize("kwargs, error, match", [
    ({"eval_n_steps": 10}, ValueError, "give exactly one of n_steps and n_episodes"),
    ({"eval_n_episodes": None}, ValueError, "give exactly one of n_steps and n_episodes"),
    ({"steps": 0}, ValueError, "steps must be a positive int, got 0"),
    ({"eval_interval": 2.5}, ValueError, "eval_interval must be a positive int"),
    ({"step_offset": 50}, ValueError, r"step_offset must be an int in \[0, steps=40\], got 50"),
    ({"use_tensorboard": True}, ValueError, "use_tensorboard=True is not supported"),
    ({"eval_during_episode": True}, ValueError, "eval_during_episode=True needs an eval_env"),
    ({"env": SerialVectorEnv([CounterEnv()])}, TypeError, "train_agent_batch_with_evaluation"),
])
def test_bad_arguments_are_clear_errors(tmp_path, kwargs, error, match):
    with pytest.raises(error, match=match):
        train(tmp_path, **kwargs)


def test_a_missing_outdir_parent_is_an_error_naming_it(tmp_path):
    missing = tmp_path / "no" / "such"
    with pytest.raises(FileNotFoundError, match="the parent folder of outdir .*no/such"):
        train(missing)
    assert not os.path.exists(tmp_path / "no")
    with pytest.raises(FileNotFoundError, match="train_agent_batch_with_evaluation"):
        train_agent_batch_with_evaluation(RecordingAgent(), SerialVectorEnv([CounterEnv()]), 10, None, 1,
                                          10, str(missing))


def test_old_gym_step_api_is_refused(tmp_path):
    class OldGymEnv(CounterEnv):
        def step(self, action):
            obs, r, terminated, truncated, info = super().step(action)
            return obs, r, terminated or truncated, info

    with pytest.raises(TypeError, match=r"must return gymnasium's \(obs, reward, terminated, truncated"):
        train(tmp_path, env=OldGymEnv())


def test_a_continuous_agent_in_a_discrete_env_is_a_clear_error(tmp_path):
    class ContinuousAgent(RecordingAgent):
        def batch_act(self, batch_obs):
            return [numpy.array([0.3], numpy.float32) for _ in batch_obs]

    with pytest.raises(TypeError, match=r"Discrete\(2\) takes integer actions.*continuous-action agent"):
        train(tmp_path, agent=ContinuousAgent())


def test_a_discrete_agent_in_a_continuous_env_is_a_clear_error(tmp_path):
    with pytest.raises(TypeError, match=r"Pendulum-v1: .*takes float arrays of shape \(1,\).*discrete-action"):
        train(tmp_path, env=gymnasium.make("Pendulum-v1"))


def test_single_env_evaluation_budgets():
    agent = RecordingAgent()
    assert run_evaluation_episodes(CounterEnv(5), agent, 12, None) == ([5.0, 5.0], [5.0, 5.0])
    assert run_evaluation_episodes(CounterEnv(5), agent, 3, None) == ([3.0], [3.0])  # cut, none finished
    assert run_evaluation_episodes(CounterEnv(5), agent, None, 3) == ([5.0] * 3, [5.0] * 3)
    assert agent.t == 0 and not any(agent.act_modes)
    stats = eval_performance(CounterEnv(5), agent, None, 2)
    assert stats["episodes"] == 2 and stats["mean"] == 5 and stats["stdev"] == 0 and stats["length_max"] == 5


def test_batch_evaluation_counts_episodes_in_the_order_they_started():
    def run(n_steps, n_episodes):
        agent = RecordingAgent()
        env = SerialVectorEnv([CounterEnv(3), CounterEnv(5)])
        result = batch_run_evaluation_episodes(env, agent, n_steps, n_episodes)
        assert agent.observed[-1][2] == (True, True)  # every env ends at the end
        assert agent.t == 0
        return result

    # env 0 runs episodes 0 (steps 1-3) and 2 (4-6); env 1 runs episode 1 (1-5): done at step 6
    assert run(None, 3) == ([3.0, 5.0, 3.0], [3.0, 5.0, 3.0])
    assert run(10, None) == ([3.0, 5.0], [3.0, 5.0])  # episode 2 would make 11 steps
    assert run(2, None) == ([2.0], [2.0])  # nothing finished: the cut first episode
    stats = eval_performance(SerialVectorEnv([CounterEnv(3), CounterEnv(5)]), RecordingAgent(), None, 3)
    assert stats["episodes"] == 3 and stats["median"] == 3 and stats["max"] == 5


def batch_train(outdir, env, eval_env, **kwargs):
    return train_agent_batch_with_evaluation(RecordingAgent(), env, 40, None, 2, 10, str(outdir),
                                             eval_env=eval_env, **kwargs)


def test_batch_training_with_serial_vector_env(tmp_path):
    agent, history = batch_train(tmp_path, SerialVectorEnv([CounterEnv(5), CounterEnv(5)]),
                                 SerialVectorEnv([CounterEnv(5), CounterEnv(5)]))
    header, rows = read_scores(tmp_path)
    assert header == HEADER
    assert [(r["steps"], r["episodes"], r["mean"], r["n_updates"]) for r in rows] == [
        (10, 2, 5, 10), (20, 4, 5, 20), (30, 6, 10, 30), (40, 8, 10, 40)]
    assert [h["eval_score"] for h in history] == [5, 5, 10, 10]
    assert agent.t == 40 and agent.act_modes.count(True) == 20
    assert saved_t(tmp_path / "best") == 30 and saved_t(tmp_path / "40_finish") == 40
    training = [(done, reset) for mode, done, reset in agent.observed if mode]
    assert training[4] == ((True, True), (False, False)) and training[3] == ((False, False), (False, False))


def test_batch_training_passes_truncation_as_reset(tmp_path):
    agent, _ = train_agent_batch_with_evaluation(
        RecordingAgent(), SerialVectorEnv([CounterEnv(2, truncate=True), CounterEnv(5)]), 6, None, 1, 100,
        str(tmp_path), max_episode_len=3)
    training = [(done, reset) for mode, done, reset in agent.observed if mode]
    assert training == [((False, False), (False, False)), ((False, False), (True, False)),
                        ((False, False), (False, True))]


def test_batch_training_with_multiprocess_vector_env_matches_serial(tmp_path):
    with MultiprocessVectorEnv([CounterEnv, CounterEnv]) as env:
        batch_train(tmp_path / "mp", env, SerialVectorEnv([CounterEnv(), CounterEnv()]))
    batch_train(tmp_path / "serial", SerialVectorEnv([CounterEnv(), CounterEnv()]),
                SerialVectorEnv([CounterEnv(), CounterEnv()]))
    without_time = [[{k: v for k, v in r.items() if k != "elapsed"} for r in read_scores(tmp_path / d)[1]]
                    for d in ("mp", "serial")]
    assert without_time[0] == without_time[1] and len(without_time[0]) == 4


def test_batch_training_closes_the_env_when_a_worker_fails(tmp_path):
    env = MultiprocessVectorEnv([CounterEnv, lambda: CounterEnv(fail_at=4)])
    with pytest.raises(RuntimeError, match="env 1 raised RuntimeError during step: the env broke"):
        batch_train(tmp_path, env, SerialVectorEnv([CounterEnv()]))
    assert env.closed
    assert saved_t(tmp_path / "6_except") == 6


class RandomAgent(RecordingAgent):
    def batch_act(self, batch_obs):
        return list(numpy.random.randint(2, size=len(batch_obs)))


def test_cartpole_smoke_runs_are_repeatable_when_seeded(tmp_path):
    from kusari.rl.utils import set_random_seed

    def run(outdir):
        outdir.mkdir()
        set_random_seed(0)
        env = gymnasium.make("CartPole-v1")
        env.reset(seed=1)  # later resets continue the env's seeded generator
        train_agent_with_evaluation(RandomAgent(), env, 150, None, 2, 50, str(outdir / "single"))
        with MultiprocessVectorEnv([lambda: gymnasium.make("CartPole-v1")] * 2) as vector_env:
            vector_env.seed(2)
            train_agent_batch_with_evaluation(RandomAgent(), vector_env, 150, 100, None, 50,
                                              str(outdir / "batch"), eval_env=env)
        return [[{k: v for k, v in r.items() if k != "elapsed"} for r in read_scores(outdir / d)[1]]
                for d in ("single", "batch")]

    first = run(tmp_path / "a")
    assert len(first[0]) >= 2 and len(first[1]) == 3
    assert all(r["mean"] > 0 for rows in first for r in rows)
    assert run(tmp_path / "b") == first
