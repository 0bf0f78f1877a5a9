"""train_agent_batch / train_agent_batch_with_evaluation: the training loop of an agent in a VectorEnv."""
import collections
import logging
from collections.abc import Sequence
from typing import Any

import numpy

from kusari.rl.envs import VectorEnv
from kusari.rl.experiments import _output
from kusari.rl.experiments._progress import Progress
from kusari.rl.experiments.evaluator import Evaluator
from kusari.rl.experiments.train_agent import check_training_arguments


def train_agent_batch(agent: Any, env: VectorEnv, steps: int, outdir: str,
                      checkpoint_freq: int | None = None, log_interval: int | None = None,
                      max_episode_len: int | None = None, step_offset: int = 0,
                      evaluator: Evaluator | None = None, successful_score: float | None = None,
                      step_hooks: Sequence[Any] = (), return_window_size: int = 100,
                      logger: logging.Logger | None = None) -> list[dict[str, Any]]:
    """Train ``agent`` in the envs of ``env`` (see :func:`train_agent_batch_with_evaluation`).

    Returns
    -------
    list of dicts, one per evaluation: the agent's statistics, ``eval_score``, ``steps``, ``episodes``
    """
    logger = logger or logging.getLogger(__name__)
    recent_returns: collections.deque = collections.deque(maxlen=return_window_size)
    num_envs = env.num_envs
    episode_r = numpy.zeros(num_envs, dtype=numpy.float64)
    episode_len = numpy.zeros(num_envs, dtype=numpy.int64)
    episodes = 0
    t = step_offset
    if hasattr(agent, "t"):
        agent.t = step_offset
    eval_stats_history = []
    progress = Progress(steps, step_offset, "train_agent_batch")
    try:
        obss = env.reset()
        while True:
            obss, rs, terminateds, truncateds, _ = env.step(agent.batch_act(obss))
            episode_r += rs
            episode_len += 1
            resets = numpy.array(truncateds, dtype=bool)
            if max_episode_len is not None:
                resets |= episode_len == max_episode_len
            agent.batch_observe(obss, rs, terminateds, resets)
            ends = resets | numpy.asarray(terminateds, dtype=bool)
            episodes += int(ends.sum())
            recent_returns.extend(episode_r[ends])
            # one step of every env: each counts, for checkpoints and hooks alike
            for _ in range(num_envs):
                t += 1
                if checkpoint_freq and t % checkpoint_freq == 0:
                    _output.save_agent(agent, t, outdir, logger, suffix="_checkpoint")
                for hook in step_hooks:
                    hook(env, agent, t)
            progress.update(t)
            if log_interval is not None and t >= log_interval and t % log_interval < num_envs:
                logger.info("outdir:%s step:%s episode:%s last_R:%s average_R:%s", outdir, t, episodes,
                            recent_returns[-1] if recent_returns else numpy.nan,
                            numpy.mean(recent_returns) if recent_returns else numpy.nan)
                logger.info("statistics:%s", agent.get_statistics())
            if evaluator is not None:
                eval_score = evaluator.evaluate_if_necessary(t=t, episodes=episodes)
                if eval_score is not None:
                    progress.evaluated(eval_score)
                    eval_stats_history.append(dict(agent.get_statistics(), eval_score=eval_score,
                                                   steps=t, episodes=episodes))
                    if successful_score is not None and evaluator.max_score >= successful_score:
                        break
            if t >= steps:
                break
            episode_r[ends] = 0
            episode_len[ends] = 0
            obss = env.reset(~ends)
    except (Exception, KeyboardInterrupt):
        # keep what was learned before the failure
        _output.save_agent(agent, t, outdir, logger, suffix="_except")
        raise
    finally:
        progress.close()
    _output.save_agent(agent, t, outdir, logger, suffix="_finish")
    return eval_stats_history


def train_agent_batch_with_evaluation(
        agent: Any, env: VectorEnv, steps: int, eval_n_steps: int | None,
        eval_n_episodes: int | None, eval_interval: int, outdir: str,
        checkpoint_freq: int | None = None, max_episode_len: int | None = None,
        step_offset: int = 0, eval_max_episode_len: int | None = None,
        return_window_size: int = 100, eval_env: Any = None, log_interval: int | None = None,
        successful_score: float | None = None, step_hooks: Sequence[Any] = (),
        evaluation_hooks: Sequence[Any] = (), save_best_so_far_agent: bool = True,
        use_tensorboard: bool = False,
        logger: logging.Logger | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Train a batch agent in a VectorEnv, evaluating it every ``eval_interval`` steps.

    Every ``env.step`` advances the step count by ``num_envs``. The agent gets
    ``batch_observe(obs, rewards, terminateds, resets)`` with ``resets = truncateds or
    episode_len == max_episode_len``, and the envs whose episodes ended are reset. Evaluation
    (after any step that crosses a multiple of ``eval_interval``), scores.txt, the saved agents
    and resuming are as in :func:`kusari.rl.experiments.train_agent_with_evaluation`; the
    evaluation env may be a VectorEnv (batched evaluation) or a single env. The training env is
    closed if training fails.

    Parameters
    ----------
    agent : BatchAgent
    env : VectorEnv
    steps, eval_n_steps, eval_n_episodes, eval_interval, outdir, checkpoint_freq, step_offset
        As in train_agent_with_evaluation.
    max_episode_len : int, optional
        The loop's own time limit.
    eval_max_episode_len : int, optional
        ``max_episode_len`` when None.
    return_window_size : int
        Training episodes averaged in the ``log_interval`` lines.
    eval_env : VectorEnv or gymnasium.Env, optional
        ``env`` when None.
    log_interval : int, optional
        Steps between log lines of training returns.
    successful_score, step_hooks, save_best_so_far_agent, use_tensorboard, logger
        As in train_agent_with_evaluation.
    evaluation_hooks : sequence of EvaluationHook (with ``support_train_agent_batch``)

    Returns
    -------
    (agent, eval_stats_history) as in train_agent_with_evaluation
    """
    caller = "train_agent_batch_with_evaluation"
    if not isinstance(env, VectorEnv):
        raise TypeError(f"{caller}: env must be a kusari.rl.envs.VectorEnv (SerialVectorEnv, "
                        f"MultiprocessVectorEnv), got {type(env).__name__}; train in a single env "
                        "with train_agent_with_evaluation")
    check_training_arguments(caller, steps, eval_interval, outdir, checkpoint_freq, max_episode_len,
                             step_offset, evaluation_hooks, "support_train_agent_batch")
    logger = logger or logging.getLogger(__name__)
    evaluator = Evaluator(
        agent=agent, env=env if eval_env is None else eval_env, n_steps=eval_n_steps,
        n_episodes=eval_n_episodes, eval_interval=eval_interval, outdir=outdir,
        max_episode_len=max_episode_len if eval_max_episode_len is None else eval_max_episode_len,
        step_offset=step_offset, evaluation_hooks=evaluation_hooks,
        save_best_so_far_agent=save_best_so_far_agent, logger=logger, use_tensorboard=use_tensorboard)
    try:
        history = train_agent_batch(agent, env, steps, outdir, checkpoint_freq=checkpoint_freq,
                                    log_interval=log_interval, max_episode_len=max_episode_len,
                                    step_offset=step_offset, evaluator=evaluator,
                                    successful_score=successful_score, step_hooks=step_hooks,
                                    return_window_size=return_window_size, logger=logger)
    except BaseException:
        env.close()
        if eval_env is not None:
            eval_env.close()
        raise
    return agent, history
