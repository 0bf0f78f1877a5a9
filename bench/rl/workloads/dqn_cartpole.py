"""DQN on CartPole-v1, 20k steps, with rl-baselines3-zoo's hyperparameters (a 4-256-256-2 Q-network,
128 gradient steps of batch 64 every 256 environment steps, target synced every 10 steps)."""
from __future__ import annotations

import numpy

from bench.rl import loop
from bench.rl.workloads import _shared

DESCRIPTION = "DQN, CartPole-v1, 20,480 steps"
ENV_ID = "CartPole-v1"
# 20k rounded up to a whole number of SB3's training periods (train_freq of 256 steps): SB3's learn()
# finishes its last period, so at 20,000 it would train one round more than kusari and PFRL
STEPS = 20_480
SETTINGS = {
    "source": "rl-baselines3-zoo hyperparams/dqn.yml, CartPole-v1 (zoo commit 22e3ff2); 20,480 of its 50k steps",
    "learning_rate": 2.3e-3, "batch_size": 64, "buffer_size": 100_000, "learning_starts": 1000, "gamma": 0.99,
    "target_update_interval": 10, "train_freq": 256, "gradient_steps": 128, "exploration_fraction": 0.16,
    "exploration_final_eps": 0.04, "net_arch": [256, 256], "max_grad_norm": 10, "loss": "Huber",
    "init": "PyTorch default (U(+-1/sqrt(fan_in)) weights and biases)",
}


def _pfrl_interface_agent(rl, q_function, optimizer, env, steps):
    """The same DQN construction for kusari.rl and PFRL (``rl`` is either package).

    SB3 syncs the target every 10 environment steps but trains only every 256, so each training phase
    starts from a freshly synced target and none happens inside one: PFRL's equivalent (which requires
    the target interval to be a multiple of the update interval) is a sync after every phase.
    """
    s = SETTINGS
    explorer = rl.explorers.LinearDecayEpsilonGreedy(
        1.0, s["exploration_final_eps"], int(s["exploration_fraction"] * steps), env.action_space.sample)
    return rl.agents.DQN(
        q_function, optimizer, rl.replay_buffers.ReplayBuffer(s["buffer_size"]), s["gamma"], explorer,
        replay_start_size=s["learning_starts"], minibatch_size=s["batch_size"], update_interval=s["train_freq"],
        target_update_interval=s["train_freq"], n_times_update=s["gradient_steps"],
        clip_delta=True, max_grad_norm=s["max_grad_norm"], phi=lambda x: x.astype(numpy.float32, copy=False))


def train_kusari(seed: int, steps: int):
    import gymnasium
    import kusari
    import kusari.functions as F
    import kusari.links as L
    import kusari.rl as rl
    from kusari import optimizers

    rl.utils.set_random_seed(seed)
    env = gymnasium.make(ENV_ID)
    # PyTorch's default initialization, which SB3's and PFRL's Q-networks start from
    layers = [rl.initializers.init_pytorch_default(L.Linear(n_in, n_out))
              for n_in, n_out in ((4, 256), (256, 256), (256, 2))]
    q = kusari.Sequential(layers[0], F.relu, layers[1], F.relu, layers[2], rl.q_functions.DiscreteActionValueHead())
    optimizer = optimizers.Adam(alpha=SETTINGS["learning_rate"]).setup(q)
    agent = _pfrl_interface_agent(rl, q, optimizer, env, steps)
    loop.run_single(agent, env, steps, seed)
    return _shared.eval_policy(agent)


def train_pfrl(seed: int, steps: int):
    import gymnasium
    import pfrl
    import torch

    pfrl.utils.set_random_seed(seed)
    env = gymnasium.make(ENV_ID)
    q = torch.nn.Sequential(torch.nn.Linear(4, 256), torch.nn.ReLU(), torch.nn.Linear(256, 256), torch.nn.ReLU(),
                            torch.nn.Linear(256, 2), pfrl.q_functions.DiscreteActionValueHead())
    optimizer = torch.optim.Adam(q.parameters(), lr=SETTINGS["learning_rate"])
    agent = _pfrl_interface_agent(pfrl, q, optimizer, env, steps)
    loop.run_single(agent, env, steps, seed)
    return _shared.eval_policy(agent)


def train_sb3(seed: int, steps: int):
    import gymnasium
    from stable_baselines3 import DQN

    s = SETTINGS
    model = DQN("MlpPolicy", gymnasium.make(ENV_ID), learning_rate=s["learning_rate"], batch_size=s["batch_size"],
                buffer_size=s["buffer_size"], learning_starts=s["learning_starts"], gamma=s["gamma"],
                target_update_interval=s["target_update_interval"], train_freq=s["train_freq"],
                gradient_steps=s["gradient_steps"], exploration_fraction=s["exploration_fraction"],
                exploration_final_eps=s["exploration_final_eps"], max_grad_norm=s["max_grad_norm"],
                policy_kwargs={"net_arch": s["net_arch"]}, seed=seed, device="cpu")
    model.learn(total_timesteps=steps)
    return lambda obs: int(model.predict(obs, deterministic=True)[0])
