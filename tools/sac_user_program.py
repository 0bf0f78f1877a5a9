"""A PFRL-style SAC user program on Pendulum-v1 (issue 28, item 7): train, evaluate, print the return.

    python tools/sac_user_program.py --seed 0 [--steps 3000] [--framework kusari|pfrl]

Written as a PFRL user writes it: the env in gymnasium's ``RescaleAction(-1, 1)``, a 3-256-256-2
ReLU policy ending in a tanh-squashed Gaussian head, two critics that are user Chains called with
``(obs, action)`` and concatenating them into a 4-256-256-1 ReLU MLP, ``Adam(1e-3, eps=1e-8)`` for
all three, a uniform(-1, 1) burn-in, the temperature tuned from 1 towards an entropy of -1, an
``act``/``observe`` loop with ``reset = terminated or truncated``, then 20 evaluation episodes in
``eval_mode``. ``--framework pfrl`` runs the same program on PFRL 0.4.0 (torch), for comparison, in
an interpreter that has it (the benchmarks' ``rl-peers`` environment:
``~/.cache/kusari-bench/envs/rl-peers/bin/python``). docs/rl.md gives the returns it measured.
"""
import argparse
import time

import gymnasium
import numpy


def kusari_agent(seed: int):
    import kusari
    import kusari.functions as F
    import kusari.links as L
    import kusari.rl as rl
    from kusari import optimizers

    rl.utils.set_random_seed(seed)

    class Critic(kusari.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(4, 256)
                self.l2 = L.Linear(256, 256)
                self.l3 = L.Linear(256, 1)

        def forward(self, obs_and_action):
            obs, action = obs_and_action
            h = F.concat((obs, action), axis=1)
            return self.l3(F.relu(self.l2(F.relu(self.l1(h)))))

    policy = kusari.Sequential(L.Linear(3, 256), F.relu, L.Linear(256, 256), F.relu,
                               L.Linear(256, 2), rl.policies.SquashedDiagonalGaussianHead())
    q1, q2 = Critic(), Critic()
    opts = [optimizers.Adam(alpha=1e-3, eps=1e-8).setup(link) for link in (policy, q1, q2)]
    return rl.agents.SoftActorCritic(
        policy, q1, q2, *opts, rl.replay_buffers.ReplayBuffer(10 ** 6), 0.99,
        replay_start_size=256, minibatch_size=256, update_interval=1, soft_update_tau=0.005,
        burnin_action_func=lambda: numpy.random.uniform(-1, 1, size=1).astype(numpy.float32),
        initial_temperature=1.0, entropy_target=-1.0, temperature_optimizer_lr=1e-3)


def pfrl_agent(seed: int):
    import pfrl
    import torch
    from torch import nn

    pfrl.utils.set_random_seed(seed)

    def squashed_diagonal_gaussian_head(x):
        mean, log_scale = torch.chunk(x, 2, dim=1)
        base = torch.distributions.Independent(
            torch.distributions.Normal(mean, torch.exp(torch.clamp(log_scale, -20.0, 2.0))), 1)
        return torch.distributions.TransformedDistribution(
            base, [torch.distributions.transforms.TanhTransform(cache_size=1)])

    class Critic(nn.Module):
        def __init__(self):
            super().__init__()
            self.l1, self.l2, self.l3 = nn.Linear(4, 256), nn.Linear(256, 256), nn.Linear(256, 1)

        def forward(self, obs_and_action):
            obs, action = obs_and_action
            h = torch.cat((obs, action), dim=1)
            return self.l3(torch.relu(self.l2(torch.relu(self.l1(h)))))

    policy = nn.Sequential(nn.Linear(3, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                           nn.Linear(256, 2), pfrl.nn.Lambda(squashed_diagonal_gaussian_head))
    q1, q2 = Critic(), Critic()
    opts = [torch.optim.Adam(m.parameters(), lr=1e-3, eps=1e-8) for m in (policy, q1, q2)]
    return pfrl.agents.SoftActorCritic(
        policy, q1, q2, *opts, pfrl.replay_buffers.ReplayBuffer(10 ** 6), 0.99,
        replay_start_size=256, minibatch_size=256, update_interval=1, soft_update_tau=0.005,
        burnin_action_func=lambda: numpy.random.uniform(-1, 1, size=1).astype(numpy.float32),
        initial_temperature=1.0, entropy_target=-1.0, temperature_optimizer_lr=1e-3)


def run(agent, seed: int, steps: int, eval_episodes: int = 20) -> float:
    """Train ``agent`` for ``steps`` steps, then return its mean return over ``eval_episodes``."""
    env = gymnasium.wrappers.RescaleAction(gymnasium.make("Pendulum-v1"), -1.0, 1.0)
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        action = agent.act(obs)
        obs, reward, terminated, truncated, _ = env.step(action)
        reset = terminated or truncated
        agent.observe(obs, reward, terminated, reset)
        if reset:
            obs, _ = env.reset()
    returns = []
    with agent.eval_mode():
        for episode in range(eval_episodes):
            obs, _ = env.reset(seed=10_000 + seed * 100 + episode)
            total, done = 0.0, False
            while not done:
                obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
                total += reward
                done = terminated or truncated
            returns.append(total)
    return float(numpy.mean(returns))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--steps", type=int, default=3000)
    parser.add_argument("--framework", choices=("kusari", "pfrl"), default="kusari")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    agent = (kusari_agent if args.framework == "kusari" else pfrl_agent)(args.seed)
    mean_return = run(agent, args.seed, args.steps)
    print(f"{args.framework} seed {args.seed}: mean return {mean_return:.1f} over 20 episodes "
          f"after {args.steps} steps ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
