"""kusari.rl.policies: heads that turn a network's output into an action distribution."""
from kusari.rl.policies.deterministic_policy import DeterministicHead  # NOQA
from kusari.rl.policies.gaussian_policy import (  # NOQA
    GaussianHeadWithDiagonalCovariance, GaussianHeadWithFixedCovariance,
    GaussianHeadWithStateIndependentCovariance)
from kusari.rl.policies.softmax_policy import SoftmaxCategoricalHead  # NOQA
from kusari.rl.policies.squashed_gaussian_policy import SquashedDiagonalGaussianHead  # NOQA
