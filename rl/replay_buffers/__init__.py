"""Replay buffers: uniform n-step, prioritized (proportional) and episodic."""
from kusari.rl.replay_buffers.episodic import EpisodicReplayBuffer  # noqa: F401
from kusari.rl.replay_buffers.prioritized import PrioritizedReplayBuffer  # noqa: F401
from kusari.rl.replay_buffers.prioritized import PriorityWeightError  # noqa: F401
from kusari.rl.replay_buffers.replay_buffer import ReplayBuffer  # noqa: F401
