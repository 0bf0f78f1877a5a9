"""rl/pendulum_sac: SAC on Pendulum-v1 with rl-baselines3-zoo's recipe, against the zoo's published agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``sac Pendulum-v1``: mean_reward
-156.995 (std 88.714) after n_timesteps 20k. The full tier passes when the mean return over seeds
is at least -200 (issue 13's zoo target for Pendulum-v1): the tolerance is 43.005.

Recipe: hyperparams/sac.yml, ``Pendulum-v1`` (same commit): 20000 steps, learning_rate 1e-3; the
rest SB3 2.x's SAC defaults: buffer_size 1e6, learning_starts 100, batch_size 256, tau 0.005,
gamma 0.99, one update per step, ent_coef 'auto' (initial temperature 1, target entropy -1,
learned at the same learning rate), 256-256 ReLU networks, log-std clipped to [-20, 2]. On
kusari.rl's SoftActorCritic: updates start at 256 steps (kusari.rl cannot start before it holds one
minibatch; SB3 starts at 100); the agent acts in [-1, 1] (uniform random actions until its first
update) and :class:`kusari.model_zoo.agents.ScaledActionAgent` maps its actions onto [-2, 2].

- Full tier: 20,000 steps.
- Quick tier (CI): 2,000 steps (updates from step 1,000, minibatches of 64), a pipeline check:
  it passes at a mean return of -2000 (a random policy scores about -1200, the worst possible
  about -3250 per 200-step episode); it does not check learning.

Scored on 20 episodes of the raw ``Pendulum-v1`` on a seed training never used, the policy's
mode tanh(mean).
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

RECIPE = ZooRecipe(
    kind="sac", env_id="Pendulum-v1", architecture={"hidden_sizes": (256, 256)},
    hyperparameters={"lr": 1e-3, "gamma": 0.99, "buffer_size": 1_000_000,
                     "replay_start_size": 256, "minibatch_size": 256})

REPRODUCTION = RECIPE.reproduction(
    name="rl/pendulum_sac",
    task="Pendulum-v1 swing-up, SAC",
    target=zoo_target("sac", "Pendulum-v1", -156.995, 88.714, "20k", threshold=-200.0),
    tiers={"quick": Tier(budget=2000, bound=-2000.0,
                         options={"replay_start_size": 1000, "minibatch_size": 64},
                         note="pipeline check: 2,000 steps, mean return >= -2000"),
           "full": Tier(budget=20_000, note="the zoo's 20,000 steps")},
    recipe="rl-baselines3-zoo sac.yml Pendulum-v1 on kusari.rl's SoftActorCritic: 256-256 ReLU "
           "squashed-Gaussian actor (scaled to [-2, 2]) and twin critics, Adam 1e-3, batch 256, "
           "buffer 1e6, updates from step 256, gamma 0.99, tau 0.005, automatic temperature "
           "(initial 1, target entropy -1).",
    zoo_name="sac-pendulum",
)
