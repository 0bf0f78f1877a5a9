"""kusari.rl: reinforcement-learning agents on gymnasium (ChainerRL/PFRL's successor)."""
from kusari.utils.extras import require_extra

require_extra("rl", ["gymnasium"])

from kusari.rl import (action_value, agent, agents, collections, explorers, nn, policies, q_functions,  # noqa: E402,F401,E501
                       replay_buffers, utils)  # (imported after the extra check)
