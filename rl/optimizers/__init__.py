"""Optimizers that PFRL's agents use beyond kusari's own: RMSprop with eps inside the square root."""
from kusari.rl.optimizers.rmsprop_eps_inside_sqrt import (  # noqa: F401
    RMSpropEpsInsideSqrt,
    SharedRMSpropEpsInsideSqrt,
)
