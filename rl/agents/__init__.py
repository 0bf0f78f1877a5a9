"""Agents with PFRL's names and constructor arguments (DQN family with AL, PAL, DPP, SARSA and
ResidualDQN, C51, QR-DQN, IQN, DDPG, TD3, SAC, PPO, TRPO, A2C, A3C, REINFORCE)."""
from kusari.rl.agents.a2c import A2C  # NOQA
from kusari.rl.agents.a3c import A3C  # NOQA
from kusari.rl.agents.al import AL  # NOQA
from kusari.rl.agents.ddpg import DDPG  # NOQA
from kusari.rl.agents.double_dqn import DoubleDQN  # NOQA
from kusari.rl.agents.double_pal import DoublePAL  # NOQA
from kusari.rl.agents.dpp import DPP, DPPL, DPPGreedy  # NOQA
from kusari.rl.agents.dqn import DQN  # NOQA
from kusari.rl.agents.pal import PAL  # NOQA
from kusari.rl.agents.ppo import PPO  # NOQA
from kusari.rl.agents.reinforce import REINFORCE  # NOQA
from kusari.rl.agents.residual_dqn import ResidualDQN  # NOQA
from kusari.rl.agents.sarsa import SARSA  # NOQA
from kusari.rl.agents.soft_actor_critic import SoftActorCritic  # NOQA
from kusari.rl.agents.td3 import TD3  # NOQA
from kusari.rl.agents.trpo import TRPO  # NOQA
from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN, CategoricalDQN  # NOQA
from kusari.rl.agents.qrdqn import QRDQN  # NOQA
from kusari.rl.agents.iqn import IQN, CosineBasisLinear, ImplicitQuantileQFunction  # NOQA
