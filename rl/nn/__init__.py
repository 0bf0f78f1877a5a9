"""kusari.rl.nn: network building blocks of PFRL (MLPs, Atari torsos, noisy layers, glue Links)."""
from kusari.rl.nn.atari_cnn import LargeAtariCNN, SmallAtariCNN  # NOQA
from kusari.rl.nn.bound_by_tanh import BoundByTanh, bound_by_tanh  # NOQA
from kusari.rl.nn.branched import Branched  # NOQA
from kusari.rl.nn.concat_obs_and_action import ConcatObsAndAction, concat_obs_and_action  # NOQA
from kusari.rl.nn.lmbda import Lambda  # NOQA
from kusari.rl.nn.mlp import MLP  # NOQA
from kusari.rl.nn.mlp_bn import MLPBN, LinearBN  # NOQA
from kusari.rl.nn.noisy_chain import to_factorized_noisy  # NOQA
from kusari.rl.nn.noisy_linear import FactorizedNoisyLinear  # NOQA
from kusari.rl.nn.empirical_normalization import EmpiricalNormalization  # NOQA
from kusari.rl.nn.recurrent import Recurrent, RecurrentSequential, StatelessRecurrent, is_recurrent  # NOQA
