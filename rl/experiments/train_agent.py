"""train_agent / train_agent_with_evaluation: the training loop of an agent in one gymnasium env."""
import logging
import numbers
from collections.abc import Sequence
from typing import Any

from kusari.rl.envs import VectorEnv
from kusari.rl.experiments import _output
from kusari.rl.experiments._env_steps import check_positive, reset_env, step_env
from kusari.rl.experiments._progress import Progress
from kusari.rl.experiments.evaluator import Evaluator


def train_agent(agent: Any, env: Any, steps: int, outdir: str, checkpoint_freq: int | None = None,
                max_episode_len: int | None = None, step_offset: int = 0,
                evaluator: Evaluator | None = None, successful_score: float | None = None,
                step_hooks: Sequence[Any] = (), eval_during_episode: bool = False,
                logger: logging.Logger | None = None) -> list[dict[str, Any]]:
    """Train ``agent`` in ``env`` from step ``step_offset`` to ``steps`` (see :func:`train_agent_with_evaluation`).

    Returns
    -------
    list of dicts, one per evaluation: the agent's statistics, ``eval_score``, ``steps``, ``episodes``
    """
    logger = logger or logging.getLogger(__name__)
    t = step_offset
    if hasattr(agent, "t"):
        agent.t = step_offset
    eval_stats_history = []
    episode_idx = 0
    progress = Progress(steps, step_offset, "train_agent")
    try:
        obs = reset_env(env)
        episode_r, episode_len = 0.0, 0
        while t < steps:
            obs, r, terminated, truncated = step_env(env, agent.act(obs))
            t += 1
            episode_r += r
            episode_len += 1
            reset = truncated or episode_len == max_episode_len
            agent.observe(obs, r, terminated, reset)
            for hook in step_hooks:
                hook(env, agent, t)
            progress.update(t)
            episode_end = terminated or reset or t == steps
            if episode_end:
                logger.info("outdir:%s step:%s episode:%s R:%s", outdir, t, episode_idx, episode_r)
                logger.info("statistics:%s", agent.get_statistics())
                episode_idx += 1
            if evaluator is not None and (episode_end or eval_during_episode):
                eval_score = evaluator.evaluate_if_necessary(t=t, episodes=episode_idx)
                if eval_score is not None:
                    progress.evaluated(eval_score)
                    eval_stats_history.append(dict(agent.get_statistics(), eval_score=eval_score,
                                                   steps=t, episodes=episode_idx))
                if successful_score is not None and evaluator.max_score >= successful_score:
                    break
            if checkpoint_freq and t % checkpoint_freq == 0:
                _output.save_agent(agent, t, outdir, logger, suffix="_checkpoint")
            if episode_end and t < steps:
                obs = reset_env(env)
                episode_r, episode_len = 0.0, 0
    except (Exception, KeyboardInterrupt):
        # keep what was learned before the failure
        _output.save_agent(agent, t, outdir, logger, suffix="_except")
        raise
    finally:
        progress.close()
    _output.save_agent(agent, t, outdir, logger, suffix="_finish")
    return eval_stats_history


def check_training_arguments(caller: str, steps: Any, eval_interval: Any, outdir: str,
                             checkpoint_freq: Any, max_episode_len: Any, step_offset: Any,
                             evaluation_hooks: Sequence[Any], hook_flag: str) -> None:
    """The checks both training loops make before they start (they create ``outdir``)."""
    check_positive(steps, "steps", caller)
    check_positive(eval_interval, "eval_interval", caller)
    check_positive(checkpoint_freq, "checkpoint_freq", caller, optional=True)
    check_positive(max_episode_len, "max_episode_len", caller, optional=True)
    if isinstance(step_offset, bool) or not (isinstance(step_offset, numbers.Integral) and 0 <= step_offset <= steps):
        raise ValueError(f"{caller}: step_offset must be an int in [0, steps={steps}], got {step_offset!r}")
    for hook in evaluation_hooks:
        if not getattr(hook, hook_flag, False):
            raise ValueError(f"{caller}: the evaluation hook {hook!r} does not support it "
                             f"({hook_flag} is False)")
    _output.make_outdir(outdir, caller)


def train_agent_with_evaluation(
        agent: Any, env: Any, steps: int, eval_n_steps: int | None, eval_n_episodes: int | None,
        eval_interval: int, outdir: str, checkpoint_freq: int | None = None,
        train_max_episode_len: int | None = None, step_offset: int = 0,
        eval_max_episode_len: int | None = None, eval_env: Any = None,
        successful_score: float | None = None, step_hooks: Sequence[Any] = (),
        evaluation_hooks: Sequence[Any] = (), save_best_so_far_agent: bool = True,
        use_tensorboard: bool = False, eval_during_episode: bool = False,
        logger: logging.Logger | None = None) -> tuple[Any, list[dict[str, Any]]]:
    """Train ``agent`` in one gymnasium env, evaluating it every ``eval_interval`` steps.

    Each step the agent gets ``observe(obs, r, terminated, reset)`` with ``reset = truncated or
    episode_len == train_max_episode_len``; an episode ends at ``terminated or reset``. An
    evaluation (inside ``agent.eval_mode()``) runs at the end of the first episode that ends after
    each multiple of ``eval_interval`` (or at the step itself with ``eval_during_episode``) and
    appends a row to ``outdir/scores.txt``. The agent is saved to ``outdir/best`` when its mean
    evaluation return beats the best so far, to ``outdir/<t>_checkpoint`` every
    ``checkpoint_freq`` steps, to ``outdir/<t>_finish`` at the end, and to ``outdir/<t>_except``
    when training fails. To resume, load the saved agent and pass the step it reached as
    ``step_offset``: the agent's ``t`` (when it has one) is set to it and scores.txt is appended to.

    Parameters
    ----------
    agent : Agent
    env : gymnasium.Env
    steps : int
        The step to train up to (counting ``step_offset``).
    eval_n_steps, eval_n_episodes : int or None
        The budget of each evaluation; exactly one is None.
    eval_interval : int
    outdir : str
        Created if missing; its parent must exist (FileNotFoundError otherwise).
    checkpoint_freq : int, optional
    train_max_episode_len : int, optional
        The loop's own time limit (gymnasium's TimeLimit is the usual one).
    step_offset : int
    eval_max_episode_len : int, optional
        ``train_max_episode_len`` when None.
    eval_env : gymnasium.Env, optional
        ``env`` when None (then ``eval_during_episode`` must stay False).
    successful_score : float, optional
        Stop once an evaluation's mean return reaches it.
    step_hooks : sequence of callables ``(env, agent, step)``
    evaluation_hooks : sequence of EvaluationHook (with ``support_train_agent``)
    save_best_so_far_agent : bool
    use_tensorboard : bool
        Not supported (ValueError).
    eval_during_episode : bool
    logger : logging.Logger, optional

    Returns
    -------
    (agent, eval_stats_history) : the agent, trained in place, and one dict per evaluation with
    the agent's statistics, ``eval_score`` (the mean return), ``steps`` and ``episodes``
    """
    caller = "train_agent_with_evaluation"
    if isinstance(env, VectorEnv) or isinstance(eval_env, VectorEnv):
        raise TypeError(f"{caller}: env and eval_env must be single gymnasium envs; train in a "
                        "VectorEnv with train_agent_batch_with_evaluation")
    if eval_env is None and eval_during_episode:
        raise ValueError(f"{caller}: eval_during_episode=True needs an eval_env separate from env")
    check_training_arguments(caller, steps, eval_interval, outdir, checkpoint_freq,
                             train_max_episode_len, step_offset, evaluation_hooks, "support_train_agent")
    logger = logger or logging.getLogger(__name__)
    evaluator = Evaluator(
        agent=agent, env=env if eval_env is None else eval_env, n_steps=eval_n_steps,
        n_episodes=eval_n_episodes, eval_interval=eval_interval, outdir=outdir,
        max_episode_len=train_max_episode_len if eval_max_episode_len is None else eval_max_episode_len,
        step_offset=step_offset, evaluation_hooks=evaluation_hooks,
        save_best_so_far_agent=save_best_so_far_agent, logger=logger, use_tensorboard=use_tensorboard)
    history = train_agent(agent, env, steps, outdir, checkpoint_freq=checkpoint_freq,
                          max_episode_len=train_max_episode_len, step_offset=step_offset,
                          evaluator=evaluator, successful_score=successful_score, step_hooks=step_hooks,
                          eval_during_episode=eval_during_episode, logger=logger)
    return agent, history
