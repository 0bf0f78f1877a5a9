"""A2C on CartPole-v1 with 8 environments, 20k steps, with rl-baselines3-zoo's hyperparameters (SB3's A2C
defaults but ent_coef 0: 5 steps per env per update, RMSprop lr 7e-4, separate 64-64 tanh networks)."""
from __future__ import annotations

import numpy

from bench.rl import loop
from bench.rl.workloads import _shared

DESCRIPTION = "A2C, CartPole-v1, 8 envs, 20k steps"
ENV_ID = "CartPole-v1"
STEPS = 20_000
N_ENVS = 8
SETTINGS = {
    "source": "rl-baselines3-zoo hyperparams/a2c.yml, CartPole-v1 (zoo commit 22e3ff2; SB3 A2C defaults "
              "otherwise); 20k of its 500k steps",
    "n_envs": N_ENVS, "n_steps": 5, "learning_rate": 7e-4, "rmsprop_alpha": 0.99, "rmsprop_eps": 1e-5,
    "gamma": 0.99, "gae_lambda": 1.0, "ent_coef": 0.0, "vf_coef": 0.5, "max_grad_norm": 0.5,
    "net_arch": "pi [64, 64], vf [64, 64], tanh",
    "init": "SB3 ortho_init (orthogonal; gains sqrt(2) hidden, 0.01 policy, 1 value; zero biases)",
}


def _pfrl_interface_agent(rl, model, optimizer):
    s = SETTINGS
    return rl.agents.A2C(model, optimizer, s["gamma"], N_ENVS, update_steps=s["n_steps"],
                         v_loss_coef=s["vf_coef"], entropy_coeff=s["ent_coef"], max_grad_norm=s["max_grad_norm"],
                         act_deterministically=True,   # evaluated greedily, as SB3's predict(deterministic=True)
                         phi=lambda x: x.astype(numpy.float32, copy=False))


def train_kusari(seed: int, steps: int):
    import gymnasium
    import kusari.rl as rl
    from kusari import optimizers

    rl.utils.set_random_seed(seed)
    envs = [gymnasium.make(ENV_ID) for _ in range(N_ENVS)]
    model = _shared.kusari_actor_critic()
    s = SETTINGS
    optimizer = optimizers.RMSprop(lr=s["learning_rate"], alpha=s["rmsprop_alpha"], eps=s["rmsprop_eps"])
    optimizer.setup(model)
    agent = _pfrl_interface_agent(rl, model, optimizer)
    loop.run_batch(agent, envs, steps, seed)
    return _shared.eval_policy(agent)


def train_pfrl(seed: int, steps: int):
    import gymnasium
    import pfrl
    import torch

    pfrl.utils.set_random_seed(seed)
    envs = [gymnasium.make(ENV_ID) for _ in range(N_ENVS)]
    model = _shared.pfrl_actor_critic()
    s = SETTINGS
    optimizer = torch.optim.RMSprop(model.parameters(), lr=s["learning_rate"], alpha=s["rmsprop_alpha"],
                                    eps=s["rmsprop_eps"])
    agent = _pfrl_interface_agent(pfrl, model, optimizer)
    loop.run_batch(agent, envs, steps, seed)
    return _shared.eval_policy(agent)


def train_sb3(seed: int, steps: int):
    from stable_baselines3 import A2C
    from stable_baselines3.common.env_util import make_vec_env

    model = A2C("MlpPolicy", make_vec_env(ENV_ID, n_envs=N_ENVS, seed=seed), ent_coef=SETTINGS["ent_coef"],
                seed=seed, device="cpu")
    model.learn(total_timesteps=steps)
    return lambda obs: int(model.predict(obs, deterministic=True)[0])
