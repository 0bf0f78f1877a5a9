"""Gradient-based optimizers with Chainer v7's names, hyperparameters and defaults."""
from kusari.optimizers.ada_delta import AdaDelta, AdaDeltaRule  # NOQA
from kusari.optimizers.ada_grad import AdaGrad, AdaGradRule  # NOQA
from kusari.optimizers.adam import AdaBound, Adam, AdamRule, AdamW, AMSBound, AMSGrad  # NOQA
from kusari.optimizers.corrected_momentum_sgd import (CorrectedMomentumSGD,  # NOQA
                                                      CorrectedMomentumSGDRule)
from kusari.optimizers.momentum_sgd import MomentumSGD, MomentumSGDRule  # NOQA
from kusari.optimizers.msvag import MSVAG, MSVAGRule  # NOQA
from kusari.optimizers.nesterov_ag import NesterovAG, NesterovAGRule  # NOQA
from kusari.optimizers.rmsprop import RMSprop, RMSpropRule  # NOQA
from kusari.optimizers.rmsprop_graves import RMSpropGraves, RMSpropGravesRule  # NOQA
from kusari.optimizers.sgd import SGD, SGDRule  # NOQA
from kusari.optimizers.smorms3 import SMORMS3, SMORMS3Rule  # NOQA
