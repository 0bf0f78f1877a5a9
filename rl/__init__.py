"""kusari.rl: reinforcement-learning agents on gymnasium (ChainerRL/PFRL's successor)."""
from kusari._extras import require_extra

require_extra("rl", ["gymnasium"])
