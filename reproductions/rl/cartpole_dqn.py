"""rl/cartpole_dqn: DQN on CartPole-v1 with rl-baselines3-zoo's tuned recipe, against the zoo's agent.

Target: rl-baselines3-zoo, benchmark.md at commit 22e3ff2, row ``dqn CartPole-v1``: mean_reward
500.000 (std 0.000) after n_timesteps 50k. The full tier passes when the mean return over seeds is
at least 475 (issue 13's zoo target for CartPole-v1): the tolerance is 500 - 475 = 25.

Recipe: hyperparams/dqn.yml, ``CartPole-v1`` (same commit): 5e4 steps, learning_rate 2.3e-3,
batch_size 64, buffer_size 100000, learning_starts 1000, gamma 0.99, target_update_interval 10,
train_freq 256, gradient_steps 128, exploration_fraction 0.16, exploration_final_eps 0.04,
net_arch [256, 256]; the rest SB3's DQN defaults (Adam, Huber loss, max_grad_norm 10, PyTorch's
default initialization of the Q-network, which ``initialization='pytorch'`` gives). On
kusari.rl's DQN: update_interval 256 with n_times_update 128, and the target network copied
every 256 steps, before each round of updates (SB3 copies it every 10 steps, so each round of
128 updates also starts from a fresh copy and none happens within a round); epsilon falls from 1
to 0.04 over the first 16% of the budget.

- Full tier: 50,000 steps, one environment.
- Quick tier (CI): 5,000 steps, a pipeline check: it passes at a mean return of 9, which any
  policy reaches (a CartPole episode lasts at least about 8 steps); it does not check learning.

Scored on 20 episodes of the raw ``CartPole-v1`` on a seed training never used, greedy actions, of
the run's best checkpoint (``select_best``: the best of the 10 training-time evaluations of 5
episodes, on a seed the scoring never uses): DQN's greedy CartPole policy swings between 500 and
far less from one round of 128 updates to the next (a first 3-seed run of this recipe scored the
last step's agent 281 on seed 0 and 500 on seed 1).
"""
from reproductions.rl._recipe import ZooRecipe, zoo_target
from reproductions.spec import Tier

RECIPE = ZooRecipe(
    kind="dqn", env_id="CartPole-v1", architecture={"hidden_sizes": (256, 256)},
    hyperparameters={"lr": 2.3e-3, "minibatch_size": 64, "buffer_size": 100_000,
                     "replay_start_size": 1000, "gamma": 0.99, "update_interval": 256,
                     "n_times_update": 128, "target_update_interval": 256, "start_epsilon": 1.0,
                     "end_epsilon": 0.04, "initialization": "pytorch"},
    budget_fractions={"decay_steps": 0.16}, select_best=True)

REPRODUCTION = RECIPE.reproduction(
    name="rl/cartpole_dqn",
    task="CartPole-v1 balancing, DQN",
    target=zoo_target("dqn", "CartPole-v1", 500.0, 0.0, "50k", threshold=475.0),
    tiers={"quick": Tier(budget=5000, bound=9.0,
                         note="pipeline check: 5,000 steps, mean return >= 9 (any policy)"),
           "full": Tier(budget=50_000, note="the zoo's 50,000 steps")},
    recipe="rl-baselines3-zoo dqn.yml CartPole-v1 on kusari.rl's DQN: MLP 256-256 (ReLU), Adam "
           "2.3e-3, batch 64, buffer 1e5, start after 1000 steps, 128 updates every 256 steps, "
           "target copied every 256 steps, gamma 0.99, epsilon 1 -> 0.04 over 16% of the steps, "
           "Huber loss, gradient norm clipped at 10, PyTorch's default initialization; the best "
           "of 10 training-time checkpoints (5 held-out episodes each) is scored.",
    zoo_name="dqn-cartpole",
)
