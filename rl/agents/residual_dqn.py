"""Residual DQN: DQN by the residual gradient (Baird, 1995), as ChainerRL builds it."""
from typing import Any

import kusari
from kusari.rl.agents.dqn import DQN
from kusari.rl.functions import scale_grad


class ResidualDQN(DQN):
    """DQN whose target ``R + discount * max_a Q(s', a)`` comes from the model itself and is
    differentiated too, so that each step descends the Bellman residual.

    There is no target network: ``target_model`` is the model, and nothing is synchronized.

    Parameters
    ----------
    *args, **kwargs
        As :class:`~kusari.rl.agents.dqn.DQN` (``target_update_interval`` and
        ``target_update_method`` have no effect).
    grad_scale : float
        Factor on the gradient that flows through the target: 1 is the full residual gradient,
        0 is the semi-gradient of DQN without a target network.
    """

    saved_attributes = ("model", "optimizer", "t", "optim_t", "_cumulative_steps")

    def __init__(self, *args, grad_scale: float = 1.0, **kwargs):
        self.grad_scale = grad_scale
        super().__init__(*args, **kwargs)
        self.target_model = self.model

    def sync_target_network(self) -> None:
        """Nothing to synchronize: the target is the model."""

    def _compute_target_values(self, exp_batch: dict[str, Any]) -> kusari.Variable:
        """``R + discount * (1 - terminal) * max_a Q(s', a)``, a Variable of shape (B,) whose
        gradient into the model is scaled by ``grad_scale``."""
        next_max = self.model(exp_batch["next_state"]).max
        target = (exp_batch["reward"]
                  + exp_batch["discount"] * (1.0 - exp_batch["is_state_terminal"]) * next_max)
        return scale_grad(target, self.grad_scale)

    def _loss_and_gradients(self, exp_batch: dict[str, Any], target: kusari.Variable, weights):
        # eagerly: the target's graph reaches into the model, and a static_graph trace takes its
        # arguments as leaves
        with kusari.using_config("use_static_graph", False):
            return super()._loss_and_gradients(exp_batch, target, weights)
