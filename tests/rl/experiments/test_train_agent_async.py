"""train_agent_async: two forked A3C workers on a tiny deterministic env; scores.txt, the global
step budget, saved agents, worker failures and shared-memory cleanup."""
import os
import signal

import gymnasium
import kusari
import numpy as np
import pytest
from kusari.rl import nn, policies
from kusari.rl.agents.a3c import A3C
from kusari.rl.experiments import EvaluationHook, train_agent_async
from kusari.rl.optimizers import SharedRMSpropEpsInsideSqrt
from kusari.rl.utils import async_


class CounterEnv(gymnasium.Env):
    """Deterministic: reward ``action + 1``; episodes of 5 steps. ``on_step(total_steps)`` runs
    before each step (to break the env)."""

    observation_space = gymnasium.spaces.Box(0, 10, (1,), np.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def __init__(self, on_step=None):
        self.on_step = on_step
        self.total_steps = 0

    def reset(self, *, seed=None, options=None):
        self.steps = 0
        return np.zeros(1, np.float32), {}

    def step(self, action):
        self.steps += 1
        self.total_steps += 1
        if self.on_step is not None:
            self.on_step(self.total_steps)
        return np.array([self.steps], np.float32), float(action) + 1, self.steps >= 5, False, {}


def make_agent(process_idx=0):
    model = nn.Branched(kusari.Sequential(nn.MLP(1, 2, ()), policies.SoftmaxCategoricalHead()),
                        nn.MLP(1, 1, ()))
    return A3C(model, SharedRMSpropEpsInsideSqrt(lr=1e-2).setup(model), t_max=3, gamma=0.9,
               process_idx=process_idx)


def train(outdir, make_env=lambda i, test: CounterEnv(), **kwargs):
    kwargs = {"processes": 2, "steps": 60, "eval_interval": 20, "eval_n_episodes": 1, **kwargs}
    if "make_agent" not in kwargs:
        kwargs.setdefault("agent", make_agent())
    return train_agent_async(str(outdir), make_env=make_env, **kwargs)


def read_scores(outdir):
    with open(os.path.join(outdir, "scores.txt")) as f:
        lines = f.read().splitlines()
    return lines[0].split("\t"), [dict(zip(lines[0].split("\t"), map(float, l.split("\t")))) for l in lines[1:]]


@pytest.mark.parametrize("how", ["agent", "make_agent"])
def test_scores_saved_agents_history_and_shared_training(tmp_path, how):
    kwargs = {"make_agent": make_agent} if how == "make_agent" else {"agent": make_agent()}
    initial = None if how == "make_agent" else {
        n: p.array.copy() for n, p in kwargs["agent"].shared_model.namedparams()}
    agent, history = train(tmp_path, **kwargs)
    header, rows = read_scores(tmp_path)
    assert header == ["steps", "episodes", "elapsed", "mean", "median", "stdev", "max", "min",
                      "average_value", "average_entropy"]
    assert len(rows) == len(history) >= 2
    # process 0 evaluates after each multiple of 20 global steps, once per multiple
    assert [r["steps"] // 20 for r in rows] == sorted({r["steps"] // 20 for r in rows})
    assert all(r["steps"] <= 60 and 5 <= r["mean"] <= 10 for r in rows)
    assert [h["steps"] for h in history] == [r["steps"] for r in rows]
    assert {"60_finish", "best", "scores.txt"} <= set(os.listdir(tmp_path))
    saved = make_agent()
    saved.load(str(tmp_path / "60_finish"))
    assert saved.t > 0  # the local steps of the process that took the last step
    if initial is not None:  # the parent's agent holds the workers' updates
        for name, param in agent.shared_model.namedparams():
            assert not np.array_equal(param.array, initial[name])


def test_the_global_budget_is_exactly_steps(tmp_path):
    calls = async_.fork_context().Value("q", 0)
    steps_seen = async_.fork_context().Array("q", 61)

    def hook(env, agent, step):
        with calls.get_lock():
            calls.value += 1
        steps_seen[step] += 1

    train(tmp_path, global_step_hooks=[hook], eval_interval=None)
    assert calls.value == 60
    assert list(steps_seen) == [0] + [1] * 60  # every global step taken once, by one process
    assert not os.path.exists(tmp_path / "scores.txt")


def test_step_offset_resumes_scores_and_budget(tmp_path):
    train(tmp_path, steps=40)
    agent = make_agent()
    agent.load(str(tmp_path / "40_finish"))
    train(tmp_path, agent=agent, steps=80, step_offset=40)
    _, rows = read_scores(tmp_path)
    assert rows[-1]["steps"] > 40 and os.path.isdir(tmp_path / "80_finish")


def test_successful_score_stops_training(tmp_path):
    _, history = train(tmp_path, steps=10 ** 6, successful_score=0.0)
    assert len(history) == 1 and history[0]["steps"] < 10 ** 6
    assert os.path.isdir(tmp_path / "successful")


def kill_worker_1(process_idx, test):
    def on_step(t):
        if process_idx == 1 and t == 7:
            os.kill(os.getpid(), signal.SIGKILL)
    return CounterEnv(on_step)


def test_a_killed_worker_is_an_error_and_process_0_saves_the_agent(tmp_path):
    with pytest.raises(RuntimeError, match="process 1 .* died .*killed by signal SIGKILL"):
        train(tmp_path, make_env=kill_worker_1, steps=10 ** 6, eval_interval=None)
    assert any(name.endswith("_except") for name in os.listdir(tmp_path))


def test_an_env_error_in_a_worker_is_raised(tmp_path):
    def make_env(process_idx, test):
        def on_step(t):
            if t == 4:
                raise ValueError("the env broke")
        return CounterEnv(on_step if process_idx == 0 else None)

    with pytest.raises(RuntimeError, match="process 0 .* raised ValueError: the env broke"):
        train(tmp_path, make_env=make_env, steps=10 ** 6)
    assert any(n.endswith("_except") for n in os.listdir(tmp_path))


def test_exception_event_set_from_outside_stops_with_an_error(tmp_path):
    event = async_.fork_context().Event()
    event.set()
    with pytest.raises(RuntimeError, match="train_agent_async: exception_event was set"):
        train(tmp_path, exception_event=event)


def test_no_shared_memory_is_left_behind(tmp_path):
    before = set(os.listdir("/dev/shm"))
    train(tmp_path / "ok")
    with pytest.raises(RuntimeError):
        train(tmp_path / "killed", make_env=kill_worker_1, steps=10 ** 6, eval_interval=None)
    assert set(os.listdir("/dev/shm")) - before == set()


def test_evaluation_hooks_run_in_process_0(tmp_path):
    class Hook(EvaluationHook):
        support_train_agent_async = True

        def __init__(self):
            self.steps = async_.fork_context().Array("q", 4)

        def __call__(self, env, agent, evaluator, step, eval_stats, agent_stats, env_stats):
            self.steps[min(step // 20, 3)] = step

    hook = Hook()
    _, history = train(tmp_path, evaluation_hooks=[hook])
    assert [s for s in hook.steps if s] == [h["steps"] for h in history]


class UnsupportedHook(EvaluationHook):
    def __call__(self, env, agent, evaluator, step, eval_stats, agent_stats, env_stats):
        pass


@pytest.mark.parametrize("kwargs, match", [
    ({"agent": make_agent(), "make_agent": make_agent}, "give exactly one of agent and make_agent"),
    ({"processes": 0}, "processes must be a positive int"),
    ({"step_offset": 100}, r"step_offset must be an int in \[0, steps=60\]"),
    ({"use_tensorboard": True}, "use_tensorboard=True is not supported"),
    ({"random_seeds": [1]}, r"random_seeds must have one seed per process \(2\), got 1"),
    ({"eval_n_episodes": None}, "give exactly one of n_steps and n_episodes"),
    ({"evaluation_hooks": [UnsupportedHook()]}, "the evaluation hook .* does not support it"),
])
def test_bad_arguments(tmp_path, kwargs, match):
    with pytest.raises(ValueError, match=f"train_agent_async: {match}"):
        train(tmp_path, **kwargs)


def test_profile_writes_one_file_per_process(tmp_path):
    train(tmp_path, profile=True, eval_interval=None)
    assert {"profile-0.out", "profile-1.out"} <= set(os.listdir(tmp_path))
