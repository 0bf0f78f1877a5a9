"""Explorers: greedy, epsilon-greedy schedules, additive Gaussian and Ornstein-Uhlenbeck noise."""
from kusari.rl.explorers.additive_gaussian import AdditiveGaussian  # noqa: F401
from kusari.rl.explorers.additive_ou import AdditiveOU  # noqa: F401
from kusari.rl.explorers.epsilon_greedy import ConstantEpsilonGreedy  # noqa: F401
from kusari.rl.explorers.epsilon_greedy import ExponentialDecayEpsilonGreedy  # noqa: F401
from kusari.rl.explorers.epsilon_greedy import LinearDecayEpsilonGreedy  # noqa: F401
from kusari.rl.explorers.greedy import Greedy  # noqa: F401
