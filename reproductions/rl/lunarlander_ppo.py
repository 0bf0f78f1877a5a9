"""rl/lunarlander_ppo: PPO on LunarLander-v3 with rl-baselines3-zoo's recipe, against its LunarLander-v2 agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``ppo LunarLander-v2``: mean_reward
242.119 (std 31.823) after n_timesteps 1M. The zoo measured LunarLander-v2; gymnasium 1.x only has
LunarLander-v3 (v3 redraws the wind offset at every reset, fixes a non-determinism of v2's
world and widens the observation bounds; the task and its rewards are v2's), so the number is
compared across versions. The full tier passes when the mean return
over seeds is at least 200 (issue 13's zoo target for LunarLander-v3, the score that counts as
solved): the tolerance is 42.119.

Recipe: hyperparams/ppo.yml, ``LunarLander-v3`` (same commit; the v2 recipe it replaced is the
same): n_envs 16, 1e6 steps, n_steps 1024, batch_size 64, gae_lambda 0.98, gamma 0.999, n_epochs
4, ent_coef 0.01; the rest SB3's PPO defaults (learning rate 3e-4, clip range 0.2, separate 64-64
tanh policy and value networks, vf_coef 0.5, max_grad_norm 0.5, advantages standardized, Adam
with eps 1e-5). On kusari.rl's PPO: update_interval 16 x 1024 = 16384 transitions, minibatch 64,
4 epochs.

- Full tier: 1,000,000 steps over 16 environments.
- Quick tier (CI): 4,096 steps with an update every 2,048 transitions, a pipeline check: it
  passes at a mean return of -3000, which rules out only a broken loop (a barely trained policy
  that spins or flies off scores about -1000 or below; a random one about -200); it does not
  check learning.

Needs Box2D (``pip install -e '.[box2d]'``); without it the catalog lists this reproduction as
unavailable. Scored on 20 episodes of the raw ``LunarLander-v3`` on a seed training never used,
most probable actions (the zoo's benchmark is deterministic too).
"""
# gymnasium imports Box2D only in make(): imported here, a missing one makes the catalog list this as unavailable
import Box2D  # noqa: F401

from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

N_ENVS = 16

RECIPE = ZooRecipe(
    kind="ppo", env_id="LunarLander-v3", architecture={"hidden_sizes": (64, 64)},
    hyperparameters={"lr": 3e-4, "gamma": 0.999, "lambd": 0.98, "entropy_coef": 0.01,
                     "update_interval": N_ENVS * 1024, "minibatch_size": 64, "epochs": 4,
                     "clip_eps": 0.2},
    n_envs=N_ENVS)

REPRODUCTION = RECIPE.reproduction(
    name="rl/lunarlander_ppo",
    task="LunarLander-v3 landing, PPO",
    target=zoo_target("ppo", "LunarLander-v2", 242.119, 31.823, "1M", threshold=200.0,
                      note="; measured by the zoo on LunarLander-v2, run here on LunarLander-v3"),
    tiers={"quick": Tier(budget=4096, bound=-3000.0, options={"update_interval": 2048},
                         note="pipeline check: 4,096 steps, mean return >= -3000"),
           "full": Tier(budget=1_000_000, note="the zoo's 1,000,000 steps")},
    recipe="rl-baselines3-zoo ppo.yml LunarLander on kusari.rl's PPO: 16 envs, 1024 steps each "
           "per update, minibatch 64, 4 epochs, gamma 0.999, GAE lambda 0.98, entropy 0.01, "
           "separate 64-64 tanh policy and value MLPs, Adam 3e-4, clip 0.2, value coefficient "
           "0.5, gradient norm clipped at 0.5.",
    zoo_name="ppo-lunarlander",
)
