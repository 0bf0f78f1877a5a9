"""Soft Actor-Critic on Pendulum-v1, 3k steps, with rl-baselines3-zoo's hyperparameters (SB3's SAC defaults
with lr 1e-3: 256-256 ReLU actor and twin critics, batch 256, one update per step after 100 steps, automatic
temperature). Actions are tanh-squashed to [-1, 1] and scaled by 2 to Pendulum's torque range."""
from __future__ import annotations

import numpy

from bench.rl import loop
from bench.rl.workloads import _shared

DESCRIPTION = "SAC, Pendulum-v1, 3k steps"
ENV_ID = "Pendulum-v1"
STEPS = 3_000
ACTION_SCALE = 2.0
SETTINGS = {
    "source": "rl-baselines3-zoo hyperparams/sac.yml, Pendulum-v1 (zoo commit 22e3ff2; SB3 SAC defaults "
              "otherwise); 3k of its 20k steps",
    "learning_rate": 1e-3, "buffer_size": 1_000_000, "learning_starts": 100, "batch_size": 256, "tau": 0.005,
    "gamma": 0.99, "train_freq": 1, "gradient_steps": 1, "ent_coef": "auto (initial 1.0, target -1)",
    "net_arch": [256, 256],
}


def _pfrl_interface_agent(rl, policy, q1, q2, optimizers):
    s = SETTINGS
    return rl.agents.SoftActorCritic(
        policy, q1, q2, *optimizers, rl.replay_buffers.ReplayBuffer(s["buffer_size"]), s["gamma"],
        # PFRL needs a full minibatch before the first update (SB3 samples 256 of its first 100 with
        # replacement), so the PFRL interface starts after 256 steps
        replay_start_size=s["batch_size"], minibatch_size=s["batch_size"], soft_update_tau=s["tau"],
        entropy_target=-1.0, temperature_optimizer_lr=s["learning_rate"], initial_temperature=1.0,
        burnin_action_func=lambda: numpy.random.uniform(-1, 1, size=1).astype(numpy.float32),
        phi=lambda x: x.astype(numpy.float32, copy=False))


def train_kusari(seed: int, steps: int):
    import gymnasium
    import kusari
    import kusari.functions as F
    import kusari.links as L
    import kusari.rl as rl
    from kusari import optimizers

    rl.utils.set_random_seed(seed)
    env = gymnasium.make(ENV_ID)
    policy = kusari.Sequential(L.Linear(3, 256), F.relu, L.Linear(256, 256), F.relu, L.Linear(256, 2),
                               rl.policies.SquashedDiagonalGaussianHead())

    def critic():
        return kusari.Sequential(rl.nn.ConcatObsAndAction(), L.Linear(4, 256), F.relu, L.Linear(256, 256),
                                 F.relu, L.Linear(256, 1))
    q1, q2 = critic(), critic()
    opts = [optimizers.Adam(alpha=SETTINGS["learning_rate"]).setup(link) for link in (policy, q1, q2)]
    agent = _pfrl_interface_agent(rl, policy, q1, q2, opts)
    loop.run_single(agent, env, steps, seed, action_scale=ACTION_SCALE)
    return _shared.eval_policy(agent, lambda action: numpy.asarray(action) * ACTION_SCALE)


def train_pfrl(seed: int, steps: int):
    import gymnasium
    import pfrl
    import torch
    from torch import nn

    def squashed_diagonal_gaussian_head(x):
        # PFRL 0.4.0 ships no such head; this is the one its SAC example builds from torch.distributions
        mean, log_scale = torch.chunk(x, 2, dim=1)
        base = torch.distributions.Independent(
            torch.distributions.Normal(loc=mean, scale=torch.exp(torch.clamp(log_scale, -20.0, 2.0))), 1)
        return torch.distributions.TransformedDistribution(
            base, [torch.distributions.transforms.TanhTransform(cache_size=1)])

    pfrl.utils.set_random_seed(seed)
    env = gymnasium.make(ENV_ID)
    policy = nn.Sequential(nn.Linear(3, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 2),
                           pfrl.nn.Lambda(squashed_diagonal_gaussian_head))

    def critic():
        return nn.Sequential(pfrl.nn.ConcatObsAndAction(), nn.Linear(4, 256), nn.ReLU(), nn.Linear(256, 256),
                             nn.ReLU(), nn.Linear(256, 1))
    q1, q2 = critic(), critic()
    opts = [torch.optim.Adam(module.parameters(), lr=SETTINGS["learning_rate"]) for module in (policy, q1, q2)]
    agent = _pfrl_interface_agent(pfrl, policy, q1, q2, opts)
    loop.run_single(agent, env, steps, seed, action_scale=ACTION_SCALE)
    return _shared.eval_policy(agent, lambda action: numpy.asarray(action) * ACTION_SCALE)


def train_sb3(seed: int, steps: int):
    import gymnasium
    from stable_baselines3 import SAC

    model = SAC("MlpPolicy", gymnasium.make(ENV_ID), learning_rate=SETTINGS["learning_rate"], seed=seed,
                device="cpu")
    model.learn(total_timesteps=steps)
    return lambda obs: model.predict(obs, deterministic=True)[0]
