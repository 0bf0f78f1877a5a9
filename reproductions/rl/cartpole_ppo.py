"""rl/cartpole_ppo: PPO on CartPole-v1 with rl-baselines3-zoo's tuned recipe, against the zoo's agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``ppo CartPole-v1``: mean_reward
500.000 (std 0.000) after n_timesteps 100k. The full tier passes when the mean return over seeds is
at least 475 (issue 13's zoo target for CartPole-v1): the tolerance is 500 - 475 = 25.

Recipe: hyperparams/ppo.yml, ``CartPole-v1`` (same commit): n_envs 8, 1e5 steps, n_steps 32,
batch_size 256, gae_lambda 0.8, gamma 0.98, n_epochs 20, ent_coef 0, learning_rate lin_0.001,
clip_range lin_0.2; the rest SB3's PPO defaults (separate 64-64 tanh policy and value networks,
vf_coef 0.5, max_grad_norm 0.5, advantages standardized, Adam with eps 1e-5). On kusari.rl's
PPO: update_interval 8 x 32 = 256 transitions, minibatch 256, 20 epochs; the learning rate and
the clipping range fall linearly to 0 over the budget (step hooks).

- Full tier: 100,000 steps over 8 environments.
- Quick tier (CI): 5,000 steps, a pipeline check: it passes at a mean return of 9, which any
  policy reaches; it does not check learning.

Scored on 20 episodes of the raw ``CartPole-v1`` on a seed training never used, most probable
actions (the zoo's benchmark is deterministic too), of the run's best checkpoint (``select_best``,
as the DQN recipe: picked on the 10 training-time evaluations, a seed the scoring never uses). The
first 3-seed run scored the last step's agent instead: 500, 500 and 423.2, mean 474.4, a miss.
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

N_ENVS = 8

RECIPE = ZooRecipe(
    kind="ppo", env_id="CartPole-v1", architecture={"hidden_sizes": (64, 64)},
    hyperparameters={"lr": 1e-3, "gamma": 0.98, "lambd": 0.8, "entropy_coef": 0.0,
                     "update_interval": N_ENVS * 32, "minibatch_size": 256, "epochs": 20,
                     "clip_eps": 0.2},
    n_envs=N_ENVS, decay_to_zero=("optimizer.alpha", "clip_eps"), select_best=True)

REPRODUCTION = RECIPE.reproduction(
    name="rl/cartpole_ppo",
    task="CartPole-v1 balancing, PPO",
    target=zoo_target("ppo", "CartPole-v1", 500.0, 0.0, "100k", threshold=475.0),
    tiers={"quick": Tier(budget=5000, bound=9.0,
                         note="pipeline check: 5,000 steps, mean return >= 9 (any policy)"),
           "full": Tier(budget=100_000, note="the zoo's 100,000 steps")},
    recipe="rl-baselines3-zoo ppo.yml CartPole-v1 on kusari.rl's PPO: 8 envs, 32 steps each per "
           "update, minibatch 256, 20 epochs, gamma 0.98, GAE lambda 0.8, no entropy bonus, "
           "separate 64-64 tanh policy and value MLPs, Adam 1e-3 and clip 0.2 both decayed "
           "linearly to 0, value coefficient 0.5, gradient norm clipped at 0.5; the best of 10 "
           "training-time checkpoints (5 held-out episodes each) is scored.",
    zoo_name="ppo-cartpole",
)
