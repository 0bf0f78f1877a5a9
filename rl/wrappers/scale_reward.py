"""ScaleReward: multiply every reward by a constant."""
import gymnasium


class ScaleReward(gymnasium.RewardWrapper):
    """Returns ``scale * reward``.

    Parameters
    ----------
    env : gymnasium.Env
    scale : float

    Attributes
    ----------
    scale : the factor (may be changed between steps).
    original_reward : the last reward before scaling.
    """

    def __init__(self, env: gymnasium.Env, scale: float):
        super().__init__(env)
        self.scale = scale
        self.original_reward = None

    def reward(self, reward: float) -> float:
        self.original_reward = reward
        return self.scale * reward
