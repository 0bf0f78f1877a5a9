#!/usr/bin/env python
"""Measure the memory of a replay buffer of Atari transitions, and extrapolate it to 10**6.

    python examples/rl/atari/measure_replay_memory.py            # ALE/Pong-v5, 50,000 transitions

Fills ``kusari.rl.replay_buffers.ReplayBuffer`` with transitions of random play through
``make_atari`` + ``wrap_deepmind``, stored as DQN stores them (``state`` and ``next_state`` are
:class:`~kusari.rl.wrappers.atari_wrappers.LazyFrames`; consecutive ones share their frames, so
each 84x84 frame is kept once). Prints the growth of the process's resident memory
(what the allocator really took, its per-block overhead and the env's own memory included) or,
with ``--tracemalloc``, the bytes the fill allocated and kept (NumPy reports its arrays to it): in
all, per transition and times 10**6.
"""
import argparse
import os
import time
import tracemalloc

from kusari.rl import replay_buffers
from kusari.rl.wrappers import atari_wrappers

_MILLION = 10**6


def _rss_bytes() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def fill(env, n: int, seed: int) -> tuple[replay_buffers.ReplayBuffer, int]:
    """A buffer of ``n`` transitions of random play in ``env`` (episodes restarted as they end);
    the number of episodes."""
    env.action_space.seed(seed)
    buffer = replay_buffers.ReplayBuffer(capacity=n)
    obs, _ = env.reset(seed=seed)
    episodes = 1
    while len(buffer) < n:
        action = env.action_space.sample()
        next_obs, reward, terminated, truncated, _ = env.step(action)
        buffer.append(state=obs, action=action, reward=reward, next_state=next_obs,
                      next_action=None, is_state_terminal=terminated)
        obs = next_obs
        if terminated or truncated:
            buffer.stop_current_episode()
            obs, _ = env.reset()
            episodes += 1
    return buffer, episodes


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", default="ALE/Pong-v5")
    parser.add_argument("--transitions", type=int, default=50_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tracemalloc", action="store_true",
                        help="count the bytes allocated (tracemalloc) instead of the resident growth")
    args = parser.parse_args(argv)
    # made (ale-py, its ROM and OpenCV loaded) and stepped before the first reading of memory
    env = atari_wrappers.wrap_deepmind(atari_wrappers.make_atari(args.env))
    env.reset(seed=args.seed)
    env.step(0)
    rss0 = _rss_bytes()
    if args.tracemalloc:  # its own bookkeeping inflates the resident memory: one figure per run
        tracemalloc.start()
    start = time.perf_counter()
    buffer, episodes = fill(env, args.transitions, args.seed)
    seconds = time.perf_counter() - start
    if args.tracemalloc:
        name, total = "allocated (tracemalloc)", tracemalloc.get_traced_memory()[0]
    else:
        name, total = "resident (RSS growth)", _rss_bytes() - rss0
    frames = {id(frame) for (t,) in buffer.memory for key in ("state", "next_state") for frame in t[key]}
    n = len(buffer)
    print(f"{args.env}: {n} transitions ({episodes} episodes) filled in {seconds:.0f} s")
    print(f"distinct frames kept: {len(frames)} ({len(frames) / n:.3f} per transition, "
          f"{len(frames) * 84 * 84 / n:.0f} B of pixels per transition)")
    print(f"{name}: {total / 2**20:.0f} MiB, {total / n:.0f} B per transition, "
          f"{total / n * _MILLION / 1e9:.2f} GB ({total / n * _MILLION / 2**30:.2f} GiB) per 10**6 transitions")

if __name__ == "__main__":
    main()
