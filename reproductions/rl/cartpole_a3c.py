"""rl/cartpole_a3c: A3C on CartPole-v1 with rl-baselines3-zoo's A2C recipe, against the zoo's A2C agent.

Target: rl-baselines3-zoo publishes no A3C (Stable-Baselines3 has none); its closest row is A2C,
A3C's synchronous variant: benchmark.md at commit 22e3ff2, row ``a2c CartPole-v1``, mean_reward
500.000 (std 0.000) after n_timesteps 500k. The full tier passes when the mean return over seeds
is at least 475 (issue 13's zoo target for CartPole-v1): the tolerance is 500 - 475 = 25.

Recipe: hyperparams/a2c.yml, ``CartPole-v1`` (same commit), run asynchronously: 8 processes
(the zoo's n_envs) of kusari.rl's A3C updating one shared model (Hogwild), 5e5 steps in all,
rollouts of 5 steps (SB3's n_steps), gamma 0.99, no entropy bonus, separate 64-64 tanh policy and
value networks, value loss weighted as SB3's vf_coef 0.5, the loss averaged over each rollout,
max_grad_norm 0.5, and A3C's shared RMSprop (learning rate 7e-4, alpha 0.99, eps 1e-5 inside the
square root, where SB3's torch RMSprop adds it outside).

- Full tier: 500,000 steps over 8 processes.
- Quick tier (CI): 5,000 steps, a pipeline check: it passes at a mean return of 9, which any
  policy reaches; it does not check learning.

Scored on 20 episodes of the raw ``CartPole-v1`` on a seed training never used, most probable
actions.
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

PROCESSES = 8

RECIPE = ZooRecipe(
    kind="a3c", env_id="CartPole-v1", architecture={"hidden_sizes": (64, 64)},
    hyperparameters={"lr": 7e-4, "gamma": 0.99, "t_max": 5, "beta": 0.0, "v_loss_coef": 1.0,
                     "max_grad_norm": 0.5},
    n_envs=PROCESSES)

REPRODUCTION = RECIPE.reproduction(
    name="rl/cartpole_a3c",
    task="CartPole-v1 balancing, A3C",
    target=zoo_target("a2c", "CartPole-v1", 500.0, 0.0, "500k", threshold=475.0,
                      note="; the zoo publishes no A3C, A2C is its synchronous variant"),
    tiers={"quick": Tier(budget=5000, bound=9.0,
                         note="pipeline check: 5,000 steps, mean return >= 9 (any policy)"),
           "full": Tier(budget=500_000, note="the zoo's A2C budget, 500,000 steps")},
    recipe="rl-baselines3-zoo a2c.yml CartPole-v1 on kusari.rl's A3C: 8 processes sharing one "
           "model, 5-step rollouts, gamma 0.99, no entropy bonus, separate 64-64 tanh policy and "
           "value MLPs, shared RMSprop 7e-4 (alpha 0.99, eps 1e-5 inside the square root), value "
           "coefficient 0.5, gradient norm clipped at 0.5.",
    zoo_name="a3c-cartpole",
)
