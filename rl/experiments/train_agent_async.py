"""train_agent_async: train an AsyncAgent (A3C) in several processes sharing its parameters."""
import cProfile
import logging
import numbers
import os
from collections.abc import Callable, Sequence
from typing import Any

from kusari.rl.experiments import _output
from kusari.rl.experiments._env_steps import (
    check_episode_budget,
    check_positive,
    reset_env,
    step_env,
)
from kusari.rl.experiments.evaluator import Evaluator
from kusari.rl.utils import async_, set_random_seed

_CALLER = "train_agent_async"


def _train_loop(process_idx: int, env: Any, agent: Any, steps: int, outdir: str, counter: Any,
                episodes_counter: Any, stop_event: Any, exception_event: Any,
                max_episode_len: int | None, evaluator: Evaluator | None,
                successful_score: float | None, global_step_hooks: Sequence[Any],
                logger: logging.Logger) -> tuple[list[dict[str, Any]], bool]:
    """One worker's episodes until the global step reaches ``steps`` or training is stopped.

    Returns the evaluation history (process 0 evaluates) and whether ``successful_score`` was
    reached.
    """
    history: list[dict[str, Any]] = []
    global_t, global_episodes, local_t = counter.value, 0, 0

    def evaluate() -> bool:
        """Evaluate if it is time (process 0 only); whether the score is successful."""
        if process_idx != 0 or evaluator is None:
            return False
        score = evaluator.evaluate_if_necessary(t=global_t, episodes=global_episodes)
        if score is None:
            return False
        history.append(dict(agent.get_statistics(), eval_score=score, steps=global_t,
                            episodes=global_episodes))
        return successful_score is not None and score >= successful_score

    try:
        obs = reset_env(env)
        episode_r, episode_len = 0.0, 0
        while not (stop_event.is_set() or exception_event.is_set()):
            with counter.get_lock():  # take a step of the budget before stepping
                out_of_steps = counter.value >= steps
                if not out_of_steps:
                    counter.value += 1
                global_t = counter.value
            if out_of_steps:
                evaluate()  # the last evaluation, after the budget is spent
                break
            obs, r, terminated, truncated = step_env(env, agent.act(obs))
            local_t += 1
            episode_r += r
            episode_len += 1
            reset = truncated or episode_len == max_episode_len
            agent.observe(obs, r, terminated, reset)
            for hook in global_step_hooks:
                hook(env, agent, global_t)
            if global_t == steps:
                _output.save_agent(agent, steps, outdir, logger, suffix="_finish")
            if not (terminated or reset):
                continue
            with episodes_counter.get_lock():
                episodes_counter.value += 1
                global_episodes = episodes_counter.value
            if process_idx == 0:
                logger.info("outdir:%s global_step:%s local_step:%s R:%s", outdir, global_t,
                            local_t, episode_r)
                logger.info("statistics:%s", agent.get_statistics())
            if evaluate():
                stop_event.set()
                _output.save_agent(agent, "successful", outdir, logger)
                return history, True
            obs = reset_env(env)
            episode_r, episode_len = 0.0, 0
    except (Exception, KeyboardInterrupt):
        if process_idx == 0:
            _output.save_agent(agent, global_t, outdir, logger, suffix="_except")
        raise
    if process_idx == 0 and exception_event.is_set():
        # another process failed: keep what was learned
        _output.save_agent(agent, global_t, outdir, logger, suffix="_except")
    return history, False


def _check_arguments(processes: Any, steps: Any, eval_interval: Any, eval_n_steps: Any,
                     eval_n_episodes: Any, max_episode_len: Any, step_offset: Any, agent: Any,
                     make_agent: Any, evaluation_hooks: Sequence[Any], use_tensorboard: bool,
                     random_seeds: Any) -> None:
    check_positive(processes, "processes", _CALLER)
    check_positive(steps, "steps", _CALLER)
    check_positive(eval_interval, "eval_interval", _CALLER, optional=True)
    if eval_interval is not None:
        check_episode_budget(eval_n_steps, eval_n_episodes, _CALLER)
    check_positive(max_episode_len, "max_episode_len", _CALLER, optional=True)
    if isinstance(step_offset, bool) or not (isinstance(step_offset, numbers.Integral)
                                             and 0 <= step_offset <= steps):
        raise ValueError(f"{_CALLER}: step_offset must be an int in [0, steps={steps}], got "
                         f"{step_offset!r}")
    if (agent is None) == (make_agent is None):
        raise ValueError(f"{_CALLER}: give exactly one of agent and make_agent, got agent={agent!r}, "
                         f"make_agent={make_agent!r}")
    for hook in evaluation_hooks:
        if not getattr(hook, "support_train_agent_async", False):
            raise ValueError(f"{_CALLER}: the evaluation hook {hook!r} does not support it "
                             "(support_train_agent_async is False)")
    if use_tensorboard:
        raise ValueError(f"{_CALLER}: use_tensorboard=True is not supported (no torch writer in "
                         "kusari); read outdir/scores.txt instead")
    if random_seeds is not None and len(random_seeds) != processes:
        raise ValueError(f"{_CALLER}: random_seeds must have one seed per process ({processes}), "
                         f"got {len(random_seeds)}")


def train_agent_async(
        outdir: str, processes: int, make_env: Callable[..., Any], profile: bool = False,
        steps: int = 8 * 10 ** 7, eval_interval: int | None = 10 ** 6,
        eval_n_steps: int | None = None, eval_n_episodes: int | None = 10,
        eval_success_threshold: float = 0.0, max_episode_len: int | None = None,
        step_offset: int = 0, successful_score: float | None = None, agent: Any = None,
        make_agent: Callable[[int], Any] | None = None, global_step_hooks: Sequence[Any] = (),
        evaluation_hooks: Sequence[Any] = (), save_best_so_far_agent: bool = True,
        use_tensorboard: bool = False, logger: logging.Logger | None = None,
        random_seeds: Sequence[int] | None = None, stop_event: Any = None,
        exception_event: Any = None,
        use_shared_memory: bool = True) -> tuple[Any, list[dict[str, Any]]]:
    """Train an AsyncAgent in ``processes`` forked processes that share its parameters (Hogwild).

    The agent's ``shared_attributes`` (A3C: its model and optimizer state) are moved into shared
    memory, then each process ``i`` seeds itself with ``random_seeds[i]``, makes its envs with
    ``make_env(i, test=False)`` (and ``make_env(0, test=True)`` for process 0's evaluations) and
    its agent (the forked ``agent``, or ``make_agent(i)`` given the shared attributes), and runs
    episodes. Each step takes one step of a global budget counted in shared memory from
    ``step_offset`` to ``steps``; each step the agent gets ``observe(obs, r, terminated, reset)``
    with ``reset = truncated or episode_len == max_episode_len``.

    Process 0 evaluates at the end of the first of its episodes that ends after each multiple of
    ``eval_interval`` global steps and writes ``outdir/scores.txt`` as
    :func:`train_agent_with_evaluation` does (``episodes`` counts all processes' episodes); the
    agent is saved to ``outdir/best`` when the mean return beats the best so far,
    ``outdir/successful`` when it reaches ``successful_score`` (training then stops),
    ``outdir/<steps>_finish`` by the process that takes the last step, and ``outdir/<t>_except``
    by process 0 when it fails or another process does.

    A process that raises or dies stops the others (through ``exception_event``) and raises
    RuntimeError naming it; setting ``exception_event`` from outside does the same, setting
    ``stop_event`` ends training quietly. The workers are forked (POSIX only).

    Parameters
    ----------
    outdir : str
        Created if missing; its parent must exist (FileNotFoundError otherwise).
    processes : int
    make_env : callable ``(process_idx, test) -> gymnasium.Env``
    profile : bool
        Profile each process into ``outdir/profile-<process_idx>.out`` (cProfile).
    steps : int
        The global step to train up to (counting ``step_offset``).
    eval_interval : int or None
        None: never evaluate.
    eval_n_steps, eval_n_episodes : int or None
        The budget of each evaluation; exactly one is None.
    eval_success_threshold : float
        Accepted for PFRL's signature; unused (as in PFRL).
    max_episode_len : int, optional
        The loop's own time limit, in training and evaluation.
    step_offset : int
        The global step to resume from (an existing scores.txt is then appended to).
    successful_score : float, optional
    agent : AsyncAgent, optional
    make_agent : callable ``(process_idx) -> AsyncAgent``, optional
        Exactly one of ``agent`` and ``make_agent``; ``make_agent(0)`` is called in this process
        too, for the agent whose attributes are shared.
    global_step_hooks : sequence of callables ``(env, agent, global_step)``
    evaluation_hooks : sequence of EvaluationHook (with ``support_train_agent_async``)
    save_best_so_far_agent : bool
    use_tensorboard : bool
        Not supported (ValueError).
    logger : logging.Logger, optional
    random_seeds : sequence of ints, optional
        One per process; ``range(processes)`` by default.
    stop_event, exception_event : multiprocessing.Event, optional
        Made here when None; the fork context's events, or any Event that survives a fork.
    use_shared_memory : bool
        False: each process trains its own copy (the agent returned stays untrained).

    Returns
    -------
    (agent, eval_stats_history) : the agent whose shared attributes were trained, and one dict
    per evaluation (process 0's statistics, ``eval_score``, ``steps``, ``episodes``)
    """
    _check_arguments(processes, steps, eval_interval, eval_n_steps, eval_n_episodes,
                     max_episode_len, step_offset, agent, make_agent, evaluation_hooks,
                     use_tensorboard, random_seeds)
    _output.make_outdir(outdir, _CALLER)
    logger = logger or logging.getLogger(__name__)
    ctx = async_.fork_context()
    counter = ctx.Value("q", step_offset)
    episodes_counter = ctx.Value("q", 0)
    stop_event = ctx.Event() if stop_event is None else stop_event
    exception_event = ctx.Event() if exception_event is None else exception_event
    if agent is None:
        agent = make_agent(0)
    if use_shared_memory:
        async_.share_agent(agent)
    seeds = list(range(processes)) if random_seeds is None else list(random_seeds)

    def run_func(process_idx: int) -> tuple[list[dict[str, Any]], bool]:
        set_random_seed(seeds[process_idx])
        env = make_env(process_idx, test=False)
        local_agent = agent
        if make_agent is not None:
            local_agent = make_agent(process_idx)
            if use_shared_memory:
                for name in agent.shared_attributes:
                    setattr(local_agent, name, getattr(agent, name))
        local_agent.process_idx = process_idx
        evaluator = None
        if process_idx == 0 and eval_interval is not None:
            evaluator = Evaluator(
                agent=local_agent, env=make_env(process_idx, test=True), n_steps=eval_n_steps,
                n_episodes=eval_n_episodes, eval_interval=eval_interval, outdir=outdir,
                max_episode_len=max_episode_len, step_offset=step_offset,
                evaluation_hooks=evaluation_hooks, save_best_so_far_agent=save_best_so_far_agent,
                logger=logger)
        args = (process_idx, env, local_agent, steps, outdir, counter, episodes_counter,
                stop_event, exception_event, max_episode_len, evaluator, successful_score,
                global_step_hooks, logger)
        try:
            if not profile:
                return _train_loop(*args)
            profiler = cProfile.Profile()
            try:
                return profiler.runcall(_train_loop, *args)
            finally:
                profiler.dump_stats(os.path.join(outdir, f"profile-{process_idx}.out"))
        finally:
            env.close()
            if evaluator is not None:
                evaluator.env.close()

    results = async_.run_async(processes, run_func, stop_event=exception_event)
    stop_event.set()
    if exception_event.is_set():
        raise RuntimeError(f"{_CALLER}: exception_event was set; training stopped at global step "
                           f"{counter.value} (the agent is saved in {outdir})")
    return agent, results[0][0]
