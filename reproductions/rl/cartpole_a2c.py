"""rl/cartpole_a2c: A2C on CartPole-v1 with rl-baselines3-zoo's recipe, against the zoo's published agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``a2c CartPole-v1``: mean_reward
500.000 (std 0.000) after n_timesteps 500k. The full tier passes when the mean return over seeds is
at least 475 (issue 13's zoo target for CartPole-v1): the tolerance is 500 - 475 = 25.

Recipe: hyperparams/a2c.yml, ``CartPole-v1`` (same commit): n_envs 8, 5e5 steps, ent_coef 0; the
rest SB3's A2C defaults: n_steps 5, gamma 0.99, gae_lambda 1 (plain n-step returns), vf_coef 0.5,
max_grad_norm 0.5, RMSprop (learning rate 7e-4, alpha 0.99, eps 1e-5), advantages not
normalized, separate 64-64 tanh policy and value networks. On kusari.rl's A2C: 8 processes,
update_steps 5, use_gae False.

- Full tier: 500,000 steps over 8 environments.
- Quick tier (CI): 5,000 steps, a pipeline check: it passes at a mean return of 9, which any
  policy reaches; it does not check learning.

Scored on 20 episodes of the raw ``CartPole-v1`` on a seed training never used, most probable
actions (the zoo's benchmark is deterministic too).
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

N_ENVS = 8

RECIPE = ZooRecipe(
    kind="a2c", env_id="CartPole-v1", architecture={"hidden_sizes": (64, 64)},
    hyperparameters={"lr": 7e-4, "gamma": 0.99, "num_processes": N_ENVS, "update_steps": 5,
                     "entropy_coeff": 0.0, "v_loss_coef": 0.5, "max_grad_norm": 0.5},
    n_envs=N_ENVS)

REPRODUCTION = RECIPE.reproduction(
    name="rl/cartpole_a2c",
    task="CartPole-v1 balancing, A2C",
    target=zoo_target("a2c", "CartPole-v1", 500.0, 0.0, "500k", threshold=475.0),
    tiers={"quick": Tier(budget=5000, bound=9.0,
                         note="pipeline check: 5,000 steps, mean return >= 9 (any policy)"),
           "full": Tier(budget=500_000, note="the zoo's 500,000 steps")},
    recipe="rl-baselines3-zoo a2c.yml CartPole-v1 on kusari.rl's A2C: 8 envs, 5-step returns, "
           "gamma 0.99, no entropy bonus, separate 64-64 tanh policy and value MLPs, RMSprop 7e-4 "
           "(alpha 0.99, eps 1e-5), value coefficient 0.5, gradient norm clipped at 0.5.",
    zoo_name="a2c-cartpole",
)
