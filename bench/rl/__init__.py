"""RL benchmarks: kusari.rl against Stable-Baselines3 and PFRL on rl-baselines3-zoo's settings.

``python -m bench.rl`` trains each workload once per framework and seed, each run in its own process with
one thread, timing the training loop (environment steps included, evaluation excluded), then evaluates the
trained agent for 20 episodes on fresh seeds. kusari runs in the current interpreter; SB3 and PFRL share
the ``rl-peers`` environment of :mod:`bench.environments`.
"""
