"""Agents with PFRL's names and constructor arguments (DQN family, DDPG, TD3, SAC, PPO, A2C, REINFORCE, ...)."""
