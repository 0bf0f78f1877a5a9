"""rl/pendulum_td3: TD3 on Pendulum-v1 with rl-baselines3-zoo's recipe, against the zoo's published agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``td3 Pendulum-v1``: mean_reward
-151.855 (std 90.227) after n_timesteps 20k. The full tier passes when the mean return over seeds
is at least -200 (issue 13's zoo target for Pendulum-v1): the tolerance is 48.145.

Recipe: hyperparams/td3.yml, ``Pendulum-v1`` (same commit): 20000 steps, gamma 0.98, buffer_size
200000, learning_starts 10000, normal action noise of std 0.1, train_freq 1, gradient_steps 1,
learning_rate 1e-3, net_arch [400, 300]; the rest SB3 2.x's TD3 defaults (batch_size 256, tau
0.005, policy_delay 2, target noise 0.2 clipped at 0.5, ReLU networks, tanh policy output). On
kusari.rl's TD3: the agent acts in [-1, 1] (uniform random actions until its first policy update,
as SB3 before learning_starts) and :class:`kusari.model_zoo.agents.ScaledActionAgent` maps its
actions onto the torque range [-2, 2], as SB3 rescales its actions.

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
    kind="td3", env_id="Pendulum-v1", architecture={"hidden_sizes": (400, 300)},
    hyperparameters={"lr": 1e-3, "gamma": 0.98, "buffer_size": 200_000,
                     "replay_start_size": 10_000, "minibatch_size": 256, "noise_std": 0.1})

REPRODUCTION = RECIPE.reproduction(
    name="rl/pendulum_td3",
    task="Pendulum-v1 swing-up, TD3",
    target=zoo_target("td3", "Pendulum-v1", -151.855, 90.227, "20k", threshold=-200.0),
    tiers={"quick": Tier(budget=2000, bound=-2000.0,
                         options={"replay_start_size": 1000, "minibatch_size": 64},
                         note="pipeline check: 2,000 steps, mean return >= -2000"),
           "full": Tier(budget=20_000, note="the zoo's 20,000 steps")},
    recipe="rl-baselines3-zoo td3.yml Pendulum-v1 on kusari.rl's TD3: 400-300 ReLU actor "
           "(tanh output, scaled to [-2, 2]) and twin critics, Adam 1e-3, batch 256, buffer 2e5, "
           "random actions and no updates for 10,000 steps, Gaussian exploration std 0.1, "
           "gamma 0.98, tau 0.005, policy delay 2, target smoothing 0.2 clipped at 0.5.",
    zoo_name="td3-pendulum",
)
