"""The training loops that drive PFRL-interface agents (kusari.rl's and PFRL's alike) on gymnasium envs.

SB3 brings its own loop (``model.learn``); these give kusari and PFRL the same one: reset with a seed,
``act``/``observe`` (or their batch forms), an episode ending on ``terminated`` (``done``) or ``truncated``
(``reset``), and step hooks for schedules.
"""
from __future__ import annotations

from typing import Callable, Sequence

import gymnasium


def run_single(agent, env: gymnasium.Env, steps: int, seed: int,
               hooks: Sequence[Callable[[int], None]] = (), action_scale: float = 1.0) -> None:
    """Train ``agent`` for ``steps`` environment steps of one env; ``hook(step)`` runs after each."""
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    for step in range(1, steps + 1):
        action = agent.act(obs)
        obs, reward, terminated, truncated, _ = env.step(action * action_scale if action_scale != 1.0 else action)
        agent.observe(obs, reward, terminated, truncated)
        for hook in hooks:
            hook(step)
        if terminated or truncated:
            obs, _ = env.reset()


def run_batch(agent, envs: Sequence[gymnasium.Env], steps: int, seed: int,
              hooks: Sequence[Callable[[int], None]] = ()) -> None:
    """Train ``agent`` for ``steps`` transitions in all of ``envs`` together (as SB3 counts them)."""
    observations = [env.reset(seed=seed + i)[0] for i, env in enumerate(envs)]
    for i, env in enumerate(envs):
        env.action_space.seed(seed + i)
    done_steps = 0
    while done_steps < steps:
        actions = agent.batch_act(observations)
        rewards, terminateds, truncateds = [], [], []
        for i, (env, action) in enumerate(zip(envs, actions)):
            obs, reward, terminated, truncated, _ = env.step(action)
            observations[i] = obs
            rewards.append(reward)
            terminateds.append(terminated)
            truncateds.append(truncated)
        agent.batch_observe(observations, rewards, terminateds, truncateds)
        for i, env in enumerate(envs):
            if terminateds[i] or truncateds[i]:
                observations[i] = env.reset()[0]
        done_steps += len(envs)
        for hook in hooks:
            hook(done_steps)


def linear(start: float, steps: int) -> Callable[[int], float]:
    """``start`` decayed linearly to 0 over ``steps`` (SB3's ``lin_`` schedules)."""
    return lambda step: start * max(0.0, 1.0 - step / steps)
