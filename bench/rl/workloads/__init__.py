"""The RL workloads: one module each, with ``train_kusari``, ``train_pfrl`` and ``train_sb3`` side by side.

A workload module defines ``DESCRIPTION``, ``ENV_ID``, ``STEPS`` (environment steps of the training loop),
``SETTINGS`` (the rl-baselines3-zoo hyperparameters it follows, with their source) and one
``train_<framework>(seed, steps) -> act`` per framework: it trains from scratch and returns
``act(obs) -> action``, the deterministic policy that the worker evaluates. Frameworks are imported inside
those functions only.
"""
from __future__ import annotations

import importlib
from types import ModuleType

WORKLOADS = ("dqn_cartpole", "ppo_cartpole", "a2c_cartpole", "sac_pendulum")
FRAMEWORKS = ("kusari", "sb3", "pfrl")
#: the bench.environments recipe each framework runs in ("kusari": the current interpreter)
ENVIRONMENT = {"kusari": "kusari", "sb3": "rl-peers", "pfrl": "rl-peers"}


def load(name: str) -> ModuleType:
    """The module of workload ``name``."""
    if name not in WORKLOADS:
        raise ValueError(f"bench.rl: unknown workload {name!r}; known: {', '.join(WORKLOADS)}")
    return importlib.import_module(f"{__name__}.{name}")
