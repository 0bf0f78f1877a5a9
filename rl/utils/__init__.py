"""Helpers shared by kusari.rl's parts: seeding, sampling, batching observations, copying parameters."""
from kusari.rl.utils import async_  # noqa: F401
from kusari.rl.utils.batch_states import batch_states  # noqa: F401
from kusari.rl.utils.conjugate_gradient import conjugate_gradient  # noqa: F401
from kusari.rl.utils.copy_param import copy_param, soft_copy_param, synchronize_parameters  # noqa: F401
from kusari.rl.utils.random import sample_n_k  # noqa: F401
from kusari.rl.utils.random_seed import set_random_seed  # noqa: F401
