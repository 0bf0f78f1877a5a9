"""Shared by the DDPG, TD3 and SAC tests: a one-step contextual bandit, a linear critic; and the
run loop of all agents' tests."""
import gymnasium
import kusari
import numpy
from kusari.rl import nn


class Bandit(gymnasium.Env):
    """One-step episodes: the observation is one of two one-hot contexts; the reward for action
    ``a`` is ``-(a - best)**2`` with ``best = +0.5`` in context 0 and ``-0.5`` in context 1."""

    BEST = numpy.array([0.5, -0.5])
    observation_space = gymnasium.spaces.Box(0, 1, (2,), numpy.float32)
    action_space = gymnasium.spaces.Box(-1, 1, (1,), numpy.float32)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.context = int(self.np_random.integers(2))
        return numpy.eye(2, dtype=numpy.float32)[self.context], {}

    def step(self, action):
        reward = -float((action[0] - self.BEST[self.context]) ** 2)
        obs, _ = self.reset()
        return obs, reward, True, False, {}


def linear_critic(obs_size, action_size):
    return kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(obs_size + action_size, 1, []))


def run(agent, env, steps, seed=0):
    """``steps`` steps of ``agent`` acting and observing in ``env`` (reset with ``seed``, then
    unseeded at each episode end); shared by the tests of all agents."""
    obs, _ = env.reset(seed=seed)
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
        agent.observe(obs, reward, terminated, truncated)
        if terminated or truncated:
            obs, _ = env.reset()


def params(link):
    return {name: p.array.copy() for name, p in link.namedparams()}


def output_layer(link):
    """(W, b) of the linear layer of a linear policy or critic, as float64."""
    mlp = link[0] if isinstance(link[0], nn.MLP) else link[1]
    return mlp.output.W.array.astype(numpy.float64), mlp.output.b.array.astype(numpy.float64)
