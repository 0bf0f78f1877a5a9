"""A two-state MDP with known values, and a seeded run of a DQN-family agent on it (importable as
``rl_discrete_chain``; see conftest.py)."""
import gymnasium
import kusari.links as L
import numpy
from kusari import optimizers
from kusari.rl import explorers, q_functions
from kusari.rl.replay_buffers import ReplayBuffer
from kusari.rl.utils import set_random_seed

GAMMA, EPSILON = 0.9, 0.5


class TwoStateChain(gymnasium.Env):
    """State 0: action 0 moves to state 1 (reward 0), action 1 ends with 0.5. State 1: action 0
    ends with 1, action 1 ends with 0. With gamma 0.9: Q*(0) = [0.9, 0.5], Q*(1) = [1, 0]."""

    observation_space = gymnasium.spaces.Box(0, 1, (2,), numpy.float32)
    action_space = gymnasium.spaces.Discrete(2)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.state = 0
        return numpy.eye(2, dtype=numpy.float32)[0], {}

    def step(self, action):
        if self.state == 0 and action == 0:
            self.state = 1
            return numpy.eye(2, dtype=numpy.float32)[1], 0.0, False, False, {}
        reward = {(0, 1): 0.5, (1, 0): 1.0, (1, 1): 0.0}[(self.state, int(action))]
        return numpy.eye(2, dtype=numpy.float32)[self.state], reward, True, False, {}


Q_STAR = numpy.array([[0.9, 0.5], [1.0, 0.0]])


def learn_chain(cls, steps=600, lr=0.05, **kwargs):
    """Train ``cls`` (tabular Q: one-hot states into a bias-free Linear) for ``steps`` steps with
    epsilon-greedy exploration (epsilon 0.5), seeded; returns the agent and its Q-values (2, 2)."""
    set_random_seed(0)
    env = TwoStateChain()
    env.action_space.seed(0)
    q = q_functions.SingleModelStateQFunctionWithDiscreteAction(L.Linear(2, 2, nobias=True))
    agent = cls(q, optimizers.Adam(lr).setup(q), ReplayBuffer(1000), GAMMA,
                explorers.ConstantEpsilonGreedy(EPSILON, env.action_space.sample), replay_start_size=16,
                minibatch_size=16, target_update_interval=10, **kwargs)
    obs, _ = env.reset(seed=0)
    for _ in range(steps):
        obs, reward, terminated, truncated, _ = env.step(agent.act(obs))
        agent.observe(obs, reward, terminated, truncated)
        if terminated or truncated:
            obs, _ = env.reset()
    with agent.eval_mode():
        return agent, agent.model(numpy.eye(2, dtype=numpy.float32)).q_values.array
