"""kusari.rl: reinforcement-learning agents on gymnasium (ChainerRL/PFRL's successor)."""
from kusari.utils.extras import require_extra

require_extra("rl", ["gymnasium"])

from kusari.rl import (action_value, agent, agents, collections, envs, experiments, explorers,  # noqa: E402,F401
                       initializers, nn, optimizers, policies, q_functions, replay_buffers, utils, wrappers)  # (after the extra check)
