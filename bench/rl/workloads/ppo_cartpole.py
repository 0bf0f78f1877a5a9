"""PPO on CartPole-v1 with 8 environments, 20k steps, with rl-baselines3-zoo's hyperparameters (32 steps per
env per update, 20 epochs of minibatch 256, GAE 0.8, learning rate and clip range decayed linearly to 0;
separate 64-64 tanh policy and value networks, SB3's MlpPolicy default)."""
from __future__ import annotations

import numpy

from bench.rl import loop
from bench.rl.workloads import _shared

DESCRIPTION = "PPO, CartPole-v1, 8 envs, 20,480 steps"
ENV_ID = "CartPole-v1"
# 20k rounded up to a whole number of SB3's training periods (rollout of 8 x 32 = 256 steps): SB3's learn()
# finishes its last period, so at 20,000 it would train one round more than kusari and PFRL
STEPS = 20_480
N_ENVS = 8
SETTINGS = {
    "source": "rl-baselines3-zoo hyperparams/ppo.yml, CartPole-v1 (zoo commit 22e3ff2); 20,480 of its 100k steps",
    "n_envs": N_ENVS, "n_steps": 32, "batch_size": 256, "gae_lambda": 0.8, "gamma": 0.98, "n_epochs": 20,
    "ent_coef": 0.0, "learning_rate": "lin_0.001", "clip_range": "lin_0.2", "vf_coef": 0.5, "max_grad_norm": 0.5,
    "adam_eps": 1e-5, "net_arch": "pi [64, 64], vf [64, 64], tanh",
    "init": "SB3 ortho_init (orthogonal; gains sqrt(2) hidden, 0.01 policy, 1 value; zero biases)",
}
LEARNING_RATE, CLIP_RANGE = 1e-3, 0.2


def _pfrl_interface_agent(rl, model, optimizer):
    s = SETTINGS
    return rl.agents.PPO(model, optimizer, gamma=s["gamma"], lambd=s["gae_lambda"], value_func_coef=s["vf_coef"],
                         entropy_coef=s["ent_coef"], update_interval=s["n_steps"] * N_ENVS,
                         minibatch_size=s["batch_size"], epochs=s["n_epochs"], clip_eps=CLIP_RANGE,
                         standardize_advantages=True, max_grad_norm=s["max_grad_norm"],
                         act_deterministically=True,   # evaluated greedily, as SB3's predict(deterministic=True)
                         phi=lambda x: x.astype(numpy.float32, copy=False))


def _schedules(agent, set_lr, steps):
    lr, clip = loop.linear(LEARNING_RATE, steps), loop.linear(CLIP_RANGE, steps)

    def hook(step):
        set_lr(lr(step))
        agent.clip_eps = clip(step)
    return [hook]


def train_kusari(seed: int, steps: int):
    import gymnasium
    import kusari.rl as rl
    from kusari import optimizers

    rl.utils.set_random_seed(seed)
    envs = [gymnasium.make(ENV_ID) for _ in range(N_ENVS)]
    model = _shared.kusari_actor_critic()
    optimizer = optimizers.Adam(alpha=LEARNING_RATE, eps=SETTINGS["adam_eps"]).setup(model)
    agent = _pfrl_interface_agent(rl, model, optimizer)
    loop.run_batch(agent, envs, steps, seed,
                   _schedules(agent, lambda value: setattr(optimizer, "alpha", value), steps))
    return _shared.eval_policy(agent)


def train_pfrl(seed: int, steps: int):
    import gymnasium
    import pfrl
    import torch

    pfrl.utils.set_random_seed(seed)
    envs = [gymnasium.make(ENV_ID) for _ in range(N_ENVS)]
    model = _shared.pfrl_actor_critic()
    optimizer = torch.optim.Adam(model.parameters(), lr=LEARNING_RATE, eps=SETTINGS["adam_eps"])

    def set_lr(value):
        for group in optimizer.param_groups:
            group["lr"] = value
    agent = _pfrl_interface_agent(pfrl, model, optimizer)
    loop.run_batch(agent, envs, steps, seed, _schedules(agent, set_lr, steps))
    return _shared.eval_policy(agent)


def train_sb3(seed: int, steps: int):
    from stable_baselines3 import PPO
    from stable_baselines3.common.env_util import make_vec_env

    s = SETTINGS
    model = PPO("MlpPolicy", make_vec_env(ENV_ID, n_envs=N_ENVS, seed=seed), n_steps=s["n_steps"],
                batch_size=s["batch_size"], gae_lambda=s["gae_lambda"], gamma=s["gamma"], n_epochs=s["n_epochs"],
                ent_coef=s["ent_coef"], learning_rate=lambda remaining: LEARNING_RATE * remaining,
                clip_range=lambda remaining: CLIP_RANGE * remaining, seed=seed, device="cpu")
    model.learn(total_timesteps=steps)
    return lambda obs: int(model.predict(obs, deterministic=True)[0])
