"""The RL reproductions' shared steps: train a zoo agent for some environment steps, score it on 20 fresh episodes.

A reproduction module states an rl-baselines3-zoo recipe as a :class:`ZooRecipe` (the agent kind of
:func:`kusari.model_zoo.agents.make_agent`, the environment, the architecture, the zoo's
hyperparameters under kusari.rl's names) and calls :meth:`ZooRecipe.reproduction`.

Seeds (``seed`` is the runner's): training env ``i`` is reset first with ``1000 * seed + i`` (A3C's
process ``i`` also seeds NumPy with it) and
the evaluations during training (5 episodes, 10 times per run, into ``work_dir/training/scores.txt``)
use ``1000 * seed + 999``; the scored evaluation runs 20 episodes of the raw
``gymnasium.make(env_id)`` whose generator is seeded with ``10**6 + seed``, a seed training never
uses. It runs in ``eval_mode()``: greedy or deterministic actions, as the zoo's benchmark.

None of these recipes normalizes observations (the zoo's files set no ``normalize`` for them); a
recipe that does would put ``kusari.rl.nn.EmpiricalNormalization`` first in the agent's model, so
the zoo file carries its statistics.
"""
import dataclasses
import os
from typing import Any

import gymnasium

from kusari.model_zoo.agents import hyperparameters, make_agent, save_agent
from kusari.rl.agent import AsyncAgent
from kusari.rl.envs import SerialVectorEnv
from kusari.rl.experiments import (LinearInterpolationHook, eval_performance, train_agent_async,
                                   train_agent_batch_with_evaluation, train_agent_with_evaluation)

from reproductions.spec import Reproduction, Target, Tier

ZOO_BENCHMARK = "rl-baselines3-zoo benchmark.md, commit 22e3ff2"
EVAL_EPISODES = 20
EVAL_SEED_OFFSET = 10**6
_TRAIN_EVALUATIONS = 10
_TRAIN_EVAL_EPISODES = 5


def zoo_target(algo: str, env_id: str, mean_reward: float, std_reward: float, n_timesteps: str,
               threshold: float, note: str = "") -> Target:
    """The zoo's published mean return as the target, with a tolerance that puts the bound at ``threshold``.

    Parameters
    ----------
    algo, env_id : str
        The row of the zoo's benchmark.md, e.g. ``'dqn'``, ``'CartPole-v1'``.
    mean_reward, std_reward : float
        Its ``mean_reward`` and ``std_reward`` columns.
    n_timesteps : str
        Its ``n_timesteps`` column, as printed (``'50k'``).
    threshold : float
        The lowest passing mean return (issue 13's zoo target for the environment).
    note : str
        Appended to the citation.

    Returns
    -------
    Target
        ``metric='mean_return'``, higher is better, ``bound == threshold`` (to rounding).
    """
    if threshold > mean_reward:
        raise ValueError(f"zoo_target: threshold {threshold} is above the published {mean_reward}")
    return Target(value=mean_reward, metric="mean_return", direction="higher",
                  tolerance=round(mean_reward - threshold, 6),
                  citation=f"{ZOO_BENCHMARK}: {algo} {env_id} mean_reward {mean_reward:.3f} "
                           f"(std {std_reward:.3f}) after n_timesteps {n_timesteps}; pass bound "
                           f"{threshold:g} (issue 13's target){note}")


def _attribute_path(agent: Any, path: str) -> tuple[Any, str]:
    *parents, name = path.split(".")
    for parent in parents:
        agent = getattr(agent, parent)
    if not hasattr(agent, name):
        raise AttributeError(f"ZooRecipe: the agent has no attribute {path!r} to decay")
    return agent, name


@dataclasses.dataclass(frozen=True)
class ZooRecipe:
    """An rl-baselines3-zoo recipe on a :func:`kusari.model_zoo.agents.make_agent` agent.

    Parameters
    ----------
    kind, env_id : str
        As in :func:`~kusari.model_zoo.agents.make_agent`.
    architecture : dict
        The hyperparameters that shape the networks (``hidden_sizes``); with ``kind`` and
        ``env_id`` they are the zoo entry's loader params (:attr:`loader_params`).
    hyperparameters : dict
        The training hyperparameters, kusari.rl's names; a tier's ``options`` override them.
    n_envs : int
        Environments stepped together (a ``SerialVectorEnv`` and the batch training loop when > 1),
        or, for an asynchronous agent (A3C), its processes, one environment each.
    budget_fractions : dict
        hyperparameter -> fraction of the tier's budget it is set to (SB3's
        ``exploration_fraction``), at least 1.
    decay_to_zero : tuple of str
        Agent attributes (dotted, e.g. ``'optimizer.alpha'``, ``'clip_eps'``) that fall linearly
        from their initial value to 0 over the budget (the zoo's ``lin_`` schedules).
    select_best : bool
        Score (and hand to the zoo) the run's best checkpoint, the ``best`` agent that the training
        loop saves on its training-time evaluations (seed ``1000 * seed + 999``, never used by the
        scoring), instead of the agent at the last step: model selection on held-out episodes, for
        algorithms whose greedy policy swings from one round of updates to the next.
    """

    kind: str
    env_id: str
    architecture: dict
    hyperparameters: dict
    n_envs: int = 1
    budget_fractions: dict = dataclasses.field(default_factory=dict)
    decay_to_zero: tuple = ()
    select_best: bool = False

    def __post_init__(self):
        known = hyperparameters(self.kind)
        for field in ("architecture", "hyperparameters", "budget_fractions"):
            unknown = sorted(set(getattr(self, field)) - set(known))
            if unknown:
                raise ValueError(f"ZooRecipe: {field} names {unknown}, which {self.kind} does not "
                                 f"take; it takes {', '.join(known)}")
        if not (isinstance(self.n_envs, int) and self.n_envs >= 1):
            raise ValueError(f"ZooRecipe: n_envs must be a positive int, got {self.n_envs!r}")

    @property
    def loader_params(self) -> dict:
        """The ``params`` of this recipe's zoo entry (``loader='kusari.model_zoo.agents:load_agent'``)."""
        return {"kind": self.kind, "env_id": self.env_id, **self.architecture}

    def make_agent(self, tier: Tier) -> Any:
        """A new agent with the recipe's hyperparameters for ``tier`` (its budget and options)."""
        fractions = {k: max(1, int(f * tier.budget)) for k, f in self.budget_fractions.items()}
        settings = {**self.hyperparameters, **fractions, **tier.options}
        return make_agent(self.kind, self.env_id, **self.architecture, **settings)

    def _decay_hooks(self, agent: Any, steps: int) -> list:
        hooks = []
        for path in self.decay_to_zero:
            owner, name = _attribute_path(agent, path)
            hooks.append(LinearInterpolationHook(
                steps, getattr(owner, name), 0.0,
                lambda env, agent, value, owner=owner, name=name: setattr(owner, name, value)))
        return hooks

    def _env(self, seed: int) -> gymnasium.Env:
        env = gymnasium.make(self.env_id)
        env.reset(seed=seed)  # the training loop's resets draw from this generator
        return env

    def train(self, tier: Tier, seed: int, work_dir: str) -> Any:
        """Train a new agent for ``tier.budget`` environment steps (the runner seeded NumPy).

        Progress, ``scores.txt`` and the saved agents (``best``, ``<steps>_finish``) go to
        ``work_dir/training``. Returns the agent at the end of training, or its best checkpoint
        with ``select_best``.
        """
        agent = self.make_agent(tier)
        outdir = os.path.join(work_dir, "training")
        interval = max(1, tier.budget // _TRAIN_EVALUATIONS)
        hooks = self._decay_hooks(agent, tier.budget)
        if isinstance(agent, AsyncAgent):
            seeds = [1000 * seed + i for i in range(self.n_envs)]
            train_agent_async(outdir, self.n_envs, lambda i, test: self._env(
                1000 * seed + 999 if test else seeds[i]), steps=tier.budget, eval_interval=interval,
                eval_n_episodes=_TRAIN_EVAL_EPISODES, agent=agent, global_step_hooks=hooks,
                random_seeds=seeds)
            return agent
        eval_env = self._env(1000 * seed + 999)
        common = dict(steps=tier.budget, eval_n_steps=None, eval_n_episodes=_TRAIN_EVAL_EPISODES,
                      eval_interval=interval, outdir=outdir, eval_env=eval_env, step_hooks=hooks)
        if self.n_envs == 1:
            env = self._env(1000 * seed)
            train_agent_with_evaluation(agent, env, **common)
        else:
            env = SerialVectorEnv([gymnasium.make(self.env_id) for _ in range(self.n_envs)])
            env.seed(1000 * seed)
            train_agent_batch_with_evaluation(agent, env, log_interval=interval, **common)
        env.close()
        eval_env.close()
        if self.select_best:   # into a new agent: a checkpoint from before the first update has no optimizer state
            agent = self.make_agent(tier)
            agent.load(os.path.join(outdir, "best"))
        return agent

    def evaluate(self, agent: Any, tier: Tier, seed: int) -> float:
        """Mean return of ``agent`` over 20 episodes of the raw environment, in eval mode."""
        with gymnasium.make(self.env_id) as env:
            env.reset(seed=EVAL_SEED_OFFSET + seed)  # later resets draw from this fresh generator
            return eval_performance(env, agent, n_steps=None, n_episodes=EVAL_EPISODES)["mean"]

    def reproduction(self, name: str, task: str, target: Target, tiers: dict, recipe: str,
                     zoo_name: str) -> Reproduction:
        """The :class:`Reproduction` that trains and scores this recipe and hands its agent to the zoo."""
        return Reproduction(name=name, task=task, target=target, budget_unit="environment steps",
                            tiers=tiers, train=self.train, evaluate=self.evaluate, recipe=recipe,
                            zoo_name=zoo_name, save=save_agent,
                            config=dataclasses.asdict(self))
