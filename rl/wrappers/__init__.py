"""kusari.rl.wrappers: PFRL's gymnasium wrappers (DeepMind's Atari ones in ``atari_wrappers``), and
FrameStack for vector envs.

PFRL's ContinuingTimeLimit is not needed: gymnasium's ``TimeLimit`` ends an episode with
``truncated=True``, which the training loops pass to the agent as ``reset`` (no bootstrap cut).
"""
from kusari.rl.wrappers import atari_wrappers  # noqa: F401  (ale-py and OpenCV load when used)
from kusari.rl.wrappers.cast_observation import (  # noqa: F401
    CastObservation,
    CastObservationToFloat32,
)
from kusari.rl.wrappers.frame_stack import FrameStack  # noqa: F401
from kusari.rl.wrappers.monitor import Monitor  # noqa: F401
from kusari.rl.wrappers.normalize_action_space import NormalizeActionSpace  # noqa: F401
from kusari.rl.wrappers.randomize_action import RandomizeAction  # noqa: F401
from kusari.rl.wrappers.scale_reward import ScaleReward  # noqa: F401
from kusari.rl.wrappers.vector_env_wrapper import VectorEnvWrapper  # noqa: F401
from kusari.rl.wrappers.vector_frame_stack import VectorFrameStack  # noqa: F401
