"""kusari.rl.functions: the differentiable ops that only kusari.rl needs."""
from kusari.rl.functions.squashed_gaussian_draw import squashed_gaussian_draw, SquashedGaussianDraw  # NOQA
from kusari.rl.functions.squashed_gaussian_log_density import (  # NOQA
    squashed_gaussian_log_density, SquashedGaussianLogDensity)
from kusari.rl.functions.quantile_huber_loss import quantile_huber_loss  # NOQA
from kusari.rl.functions.scale_grad import scale_grad  # NOQA
