"""rl/pendulum_ddpg: DDPG on Pendulum-v1 with rl-baselines3-zoo's recipe, against the zoo's published agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``ddpg Pendulum-v1``: mean_reward
-152.099 (std 94.282) after n_timesteps 20k. The full tier passes when the mean return over seeds
is at least -200 (issue 13's zoo target for Pendulum-v1): the tolerance is 47.901.

Recipe: hyperparams/ddpg.yml, ``Pendulum-v1`` (same commit): 20000 steps, gamma 0.98, buffer_size
200000, learning_starts 10000, normal action noise of std 0.1, train_freq 1, gradient_steps 1,
learning_rate 1e-3, net_arch [400, 300]; the rest SB3 2.x's DDPG defaults (batch_size 256, tau
0.005, one critic, ReLU networks, tanh policy output). On kusari.rl's DDPG: soft target updates
(tau 0.005) after every step; the agent acts in [-1, 1] (uniform random actions until its first
update) and :class:`kusari.model_zoo.agents.ScaledActionAgent` maps its actions onto [-2, 2].

- Full tier: 20,000 steps.
- Quick tier (CI): 2,000 steps (updates from step 1,000, minibatches of 64), a pipeline check:
  it passes at a mean return of -2000 (a random policy scores about -1200, the worst possible
  about -3250 per 200-step episode); it does not check learning.

Scored on 20 episodes of the raw ``Pendulum-v1`` on a seed training never used, deterministic
actions.
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

RECIPE = ZooRecipe(
    kind="ddpg", env_id="Pendulum-v1", architecture={"hidden_sizes": (400, 300)},
    hyperparameters={"lr": 1e-3, "gamma": 0.98, "buffer_size": 200_000,
                     "replay_start_size": 10_000, "minibatch_size": 256, "noise_std": 0.1})

REPRODUCTION = RECIPE.reproduction(
    name="rl/pendulum_ddpg",
    task="Pendulum-v1 swing-up, DDPG",
    target=zoo_target("ddpg", "Pendulum-v1", -152.099, 94.282, "20k", threshold=-200.0),
    tiers={"quick": Tier(budget=2000, bound=-2000.0,
                         options={"replay_start_size": 1000, "minibatch_size": 64},
                         note="pipeline check: 2,000 steps, mean return >= -2000"),
           "full": Tier(budget=20_000, note="the zoo's 20,000 steps")},
    recipe="rl-baselines3-zoo ddpg.yml Pendulum-v1 on kusari.rl's DDPG: 400-300 ReLU actor "
           "(tanh output, scaled to [-2, 2]) and critic, Adam 1e-3, batch 256, buffer 2e5, random "
           "actions and no updates for 10,000 steps, Gaussian exploration std 0.1, gamma 0.98, "
           "soft target updates with tau 0.005.",
    zoo_name="ddpg-pendulum",
)
