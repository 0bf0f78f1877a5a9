"""Evaluation: run an agent's greedy episodes, summarize their returns, and do so on a schedule."""
import logging
import statistics
import time
from collections.abc import Sequence
from typing import Any

import numpy

from kusari.rl.envs import VectorEnv
from kusari.rl.experiments import _output
from kusari.rl.experiments._env_steps import (
    check_episode_budget,
    check_positive,
    reset_env,
    step_env,
)


def _run_episodes(env: Any, agent: Any, n_steps: int | None, n_episodes: int | None,
                  max_episode_len: int | None, logger: logging.Logger) -> tuple[list[float], list[float]]:
    scores, lengths = [], []
    timestep = 0
    while True:
        obs = reset_env(env)
        episode_r, episode_len = 0.0, 0
        while True:
            obs, r, terminated, truncated = step_env(env, agent.act(obs))
            timestep += 1
            episode_r += r
            episode_len += 1
            reset = truncated or episode_len == max_episode_len
            out_of_steps = n_steps is not None and timestep >= n_steps
            # the last, cut episode ends too: a recurrent agent forgets it
            agent.observe(obs, r, terminated, reset or out_of_steps)
            if terminated or reset or out_of_steps:
                break
        if terminated or reset or not scores:
            logger.info("evaluation episode %s length:%s R:%s", len(scores), episode_len, episode_r)
            # an episode cut by n_steps counts only when no episode finished
            scores.append(float(episode_r))
            lengths.append(float(episode_len))
        if out_of_steps or (n_episodes is not None and len(scores) >= n_episodes):
            return scores, lengths


def run_evaluation_episodes(env: Any, agent: Any, n_steps: int | None, n_episodes: int | None,
                            max_episode_len: int | None = None,
                            logger: logging.Logger | None = None) -> tuple[list[float], list[float]]:
    """Run evaluation episodes of ``agent`` in ``env`` inside ``agent.eval_mode()``.

    Parameters
    ----------
    env : gymnasium.Env
    agent : Agent
    n_steps, n_episodes : int or None
        Exactly one is None. With ``n_steps``, the episodes that finish within that many steps
        count (the cut last one only when no episode finished).
    max_episode_len : int, optional
        Episodes end (as truncated) after this many steps.
    logger : logging.Logger, optional

    Returns
    -------
    (returns, lengths) : two lists of floats, one entry per episode
    """
    check_episode_budget(n_steps, n_episodes, "run_evaluation_episodes")
    with agent.eval_mode():
        return _run_episodes(env, agent, n_steps, n_episodes, max_episode_len,
                             logger or logging.getLogger(__name__))


def _batch_results(finished: dict[int, tuple[float, int]], running: dict[int, tuple[float, int]],
                   n_steps: int | None, n_episodes: int | None) -> tuple[list[float], list[float]] | None:
    """The evaluation's (returns, lengths) once it is complete, else None.

    Episodes are numbered in the order they started; only the finished episodes that precede the
    first unfinished one count, so that fast, short episodes cannot crowd out long ones.
    """
    first_unfinished = 0
    while first_unfinished in finished:
        first_unfinished += 1
    done = [finished[i] for i in range(first_unfinished)]
    if n_episodes is not None:
        if first_unfinished < n_episodes:
            return None
        done = done[:n_episodes]
    else:
        total, taken = 0, []
        for episode in done:
            if total + episode[1] > n_steps:
                break
            total += episode[1]
            taken.append(episode)
        running_len = running[first_unfinished][1]
        if taken == done and total + running_len < n_steps:
            return None  # the first unfinished episode may still fit
        done = taken or [running[first_unfinished]]
    return [float(r) for r, _ in done], [float(n) for _, n in done]


def _batch_run_episodes(env: VectorEnv, agent: Any, n_steps: int | None, n_episodes: int | None,
                        max_episode_len: int | None, logger: logging.Logger) -> tuple[list[float], list[float]]:
    num_envs = env.num_envs
    finished: dict[int, tuple[float, int]] = {}
    episode_of_env = list(range(num_envs))
    next_episode = num_envs
    episode_r = numpy.zeros(num_envs, dtype=numpy.float64)
    episode_len = numpy.zeros(num_envs, dtype=numpy.int64)
    obss = env.reset()
    while True:
        obss, rs, terminateds, truncateds, _ = env.step(agent.batch_act(obss))
        episode_r += rs
        episode_len += 1
        resets = numpy.asarray(truncateds, dtype=bool) | (episode_len == max_episode_len)
        ends = resets | numpy.asarray(terminateds, dtype=bool)
        for i in numpy.flatnonzero(ends):
            finished[episode_of_env[i]] = (float(episode_r[i]), int(episode_len[i]))
            episode_of_env[i] = next_episode
            next_episode += 1
        episode_r[ends] = 0
        episode_len[ends] = 0
        running = {e: (float(episode_r[i]), int(episode_len[i])) for i, e in enumerate(episode_of_env)}
        results = _batch_results(finished, running, n_steps, n_episodes)
        # at the end every env's episode ends: a recurrent agent forgets them
        agent.batch_observe(obss, rs, terminateds, resets if results is None else [True] * num_envs)
        if results is not None:
            for i, (r, n) in enumerate(zip(*results)):
                logger.info("evaluation episode %s length:%s R:%s", i, n, r)
            return results
        obss = env.reset(~ends)


def batch_run_evaluation_episodes(env: VectorEnv, agent: Any, n_steps: int | None,
                                  n_episodes: int | None, max_episode_len: int | None = None,
                                  logger: logging.Logger | None = None) -> tuple[list[float], list[float]]:
    """Run evaluation episodes in the envs of ``env`` in parallel, inside ``agent.eval_mode()``.

    Episodes are numbered in the order they start and the first ones count (with ``n_steps``:
    those whose lengths add up to at most ``n_steps``), so short episodes are not favoured.
    Parameters and returns as for :func:`run_evaluation_episodes`, with ``env`` a VectorEnv.
    """
    check_episode_budget(n_steps, n_episodes, "batch_run_evaluation_episodes")
    with agent.eval_mode():
        return _batch_run_episodes(env, agent, n_steps, n_episodes, max_episode_len,
                                   logger or logging.getLogger(__name__))


def eval_performance(env: Any, agent: Any, n_steps: int | None, n_episodes: int | None,
                     max_episode_len: int | None = None,
                     logger: logging.Logger | None = None) -> dict[str, float]:
    """Evaluate ``agent`` (batched when ``env`` is a VectorEnv) and summarize the episodes.

    Returns
    -------
    dict with ``episodes`` and the ``mean``, ``median``, ``stdev`` (0 for one episode), ``max``
    and ``min`` of the returns, and the same of the lengths as ``length_mean``, ...
    """
    run = batch_run_evaluation_episodes if isinstance(env, VectorEnv) else run_evaluation_episodes
    scores, lengths = run(env, agent, n_steps, n_episodes, max_episode_len=max_episode_len, logger=logger)
    stats = {"episodes": len(scores)}
    for prefix, values in (("", scores), ("length_", lengths)):
        stats.update({prefix + "mean": statistics.mean(values), prefix + "median": statistics.median(values),
                      prefix + "stdev": statistics.stdev(values) if len(values) >= 2 else 0.0,
                      prefix + "max": max(values), prefix + "min": min(values)})
    return stats


class Evaluator:
    """Evaluates ``agent`` every ``eval_interval`` steps, logs to scores.txt, saves the best agent.

    Creating it writes the header of ``outdir/scores.txt``: the basic columns, then the agent's
    statistics names (and the env's, when it has ``get_statistics``). With ``step_offset > 0``
    (resuming) an existing scores.txt with the same header is appended to, and the best score
    recorded in it is the one to beat.

    Parameters
    ----------
    agent : Agent
    env : gymnasium.Env or VectorEnv
        The evaluation env.
    n_steps, n_episodes : int or None
        The budget of each evaluation; exactly one is None.
    eval_interval : int
        Steps between evaluations.
    outdir : str
        An existing folder.
    max_episode_len : int, optional
    step_offset : int
        The step training starts from (evaluations stay on multiples of ``eval_interval``).
    evaluation_hooks : sequence of EvaluationHook
    save_best_so_far_agent : bool
        Save the agent to ``outdir/best`` whenever the mean return beats the best so far.
    logger : logging.Logger, optional
    use_tensorboard : bool
        Not supported (PFRL's writer needs torch): True is a ValueError.
    """

    def __init__(self, agent: Any, env: Any, n_steps: int | None, n_episodes: int | None,
                 eval_interval: int, outdir: str, max_episode_len: int | None = None,
                 step_offset: int = 0, evaluation_hooks: Sequence[Any] = (),
                 save_best_so_far_agent: bool = True, logger: logging.Logger | None = None,
                 use_tensorboard: bool = False):
        check_episode_budget(n_steps, n_episodes, "Evaluator")
        check_positive(eval_interval, "eval_interval", "Evaluator")
        if use_tensorboard:
            raise ValueError("Evaluator: use_tensorboard=True is not supported (no torch writer in "
                             "kusari); read outdir/scores.txt instead")
        self.agent = agent
        self.env = env
        self.n_steps = n_steps
        self.n_episodes = n_episodes
        self.eval_interval = eval_interval
        self.outdir = outdir
        self.max_episode_len = max_episode_len
        self.step_offset = step_offset
        self.prev_eval_t = step_offset - step_offset % eval_interval
        self.evaluation_hooks = tuple(evaluation_hooks)
        self.save_best_so_far_agent = save_best_so_far_agent
        self.logger = logger or logging.getLogger(__name__)
        self.start_time = time.time()
        self.max_score = _output.start_scores(outdir, _output.score_columns(agent, env),
                                              resume=step_offset > 0)

    def evaluate_and_update_max_score(self, t: int, episodes: int) -> float:
        """Evaluate now (at step ``t``, after ``episodes`` training episodes); the mean return."""
        getattr(self.env, "clear_statistics", lambda: None)()
        eval_stats = eval_performance(self.env, self.agent, self.n_steps, self.n_episodes,
                                      max_episode_len=self.max_episode_len, logger=self.logger)
        elapsed = time.time() - self.start_time
        agent_stats = self.agent.get_statistics()
        env_stats = getattr(self.env, "get_statistics", list)()
        _output.record_scores(self.outdir, (t, episodes, elapsed) + tuple(
            eval_stats[k] for k in ("mean", "median", "stdev", "max", "min"))
            + tuple(v for _, v in agent_stats) + tuple(v for _, v in env_stats))
        for hook in self.evaluation_hooks:
            hook(env=self.env, agent=self.agent, evaluator=self, step=t, eval_stats=eval_stats,
                 agent_stats=agent_stats, env_stats=env_stats)
        mean = eval_stats["mean"]
        if mean > self.max_score:
            self.logger.info("The best score is updated %s -> %s", self.max_score, mean)
            self.max_score = mean
            if self.save_best_so_far_agent:
                _output.save_agent(self.agent, "best", self.outdir, self.logger)
        return mean

    def evaluate_if_necessary(self, t: int, episodes: int) -> float | None:
        """Evaluate if ``eval_interval`` steps passed since the last evaluation; its mean or None."""
        if t >= self.prev_eval_t + self.eval_interval:
            score = self.evaluate_and_update_max_score(t, episodes)
            self.prev_eval_t = t - t % self.eval_interval
            return score
        return None
