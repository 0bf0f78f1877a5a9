"""One training run in its own process: ``python -m bench.rl.worker --workload W --framework F --seed S``.

It pins the framework to one thread, times ``train_<framework>(seed, steps)`` (the whole training loop, model
construction included), evaluates the returned policy on ``EVAL_EPISODES`` episodes with seeds never used in
training, and writes ``{"train_s": ..., "returns": [...], "info": {...versions...}}`` as JSON to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import platform
import sys
import time

from bench.rl import workloads

EVAL_EPISODES = 20
EVAL_SEED_BASE = 1_000_000   # evaluation seeds: EVAL_SEED_BASE + 100 * seed + episode


def versions(framework: str) -> dict[str, str]:
    """The framework's own version and those of the libraries it runs on."""
    import gymnasium
    import numpy
    info = {"python": platform.python_version(), "numpy": numpy.__version__, "gymnasium": gymnasium.__version__}
    if framework == "kusari":
        import kusari
        info["kusari"] = kusari.__version__
    else:
        import torch
        torch.set_num_threads(1)
        torch.set_num_interop_threads(1)
        info["torch"] = torch.__version__
        from importlib import metadata
        name = "stable_baselines3" if framework == "sb3" else "pfrl"
        info[name] = metadata.version(name)   # PFRL defines no __version__
    return info


def evaluate(act, env_id: str, seed: int, episodes: int = EVAL_EPISODES) -> list[float]:
    """The undiscounted return of each of ``episodes`` episodes of the policy ``act`` on fresh seeds."""
    import gymnasium
    env = gymnasium.make(env_id)
    returns = []
    for episode in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED_BASE + 100 * seed + episode)
        total, finished = 0.0, False
        while not finished:
            obs, reward, terminated, truncated, _ = env.step(act(obs))
            total += float(reward)
            finished = terminated or truncated
        returns.append(total)
    return returns


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.rl.worker")
    parser.add_argument("--workload", required=True, choices=workloads.WORKLOADS)
    parser.add_argument("--framework", required=True, choices=workloads.FRAMEWORKS)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--steps", type=int, help="environment steps (default: the workload's)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args(argv)
    workload = workloads.load(args.workload)
    info = versions(args.framework)
    steps = args.steps or workload.STEPS
    started = time.perf_counter()
    act = getattr(workload, f"train_{args.framework}")(args.seed, steps)
    train_s = time.perf_counter() - started
    returns = evaluate(act, workload.ENV_ID, args.seed)
    with open(args.out, "w") as f:
        json.dump({"train_s": train_s, "steps": steps, "returns": returns, "info": info}, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
