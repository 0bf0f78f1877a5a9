"""Categorical DQN (C51, Bellemare et al., 2017, https://arxiv.org/abs/1707.06887)."""
from typing import Any

import kusari
import kusari.functions as F
from kusari import backend
from kusari.rl.action_value import DistributionalDiscreteActionValue
from kusari.rl.agents._distributional import (
    DistributionalDQNBase,
    bellman_backup,
    check_action_value,
)
from kusari.rl.agents.dqn import eval_forward

_LOG_FLOOR = 1e-10  # PFRL clips predicted probabilities here before the log


def categorical_projection(values, probs, z_values):
    """Project the distribution with atoms ``values`` onto the evenly spaced atoms ``z_values``.

    Each probability is split between the two neighbouring atoms of ``z_values`` in proportion to
    closeness (Algorithm 1 of the C51 paper); values outside ``[z_0, z_-1]`` go to the end atoms.
    Written as the dense weight ``max(0, 1 - |b_j - i|)`` of atom j on atom i, which is the paper's
    split (and is 1 on i when ``b_j`` is the integer i), so it needs no scatter on either backend.

    Parameters
    ----------
    values : float array of shape (B, n_atoms), the returns of the atoms before projection
    probs : float array of shape (B, n_atoms), their probabilities
    z_values : float array of shape (n_atoms,), ascending and evenly spaced

    Returns
    -------
    array of shape (B, n_atoms): probabilities on ``z_values``, in ``probs``' dtype.
    """
    n_atoms = z_values.shape[0]
    if values.shape != probs.shape or values.ndim != 2 or values.shape[1] != n_atoms:
        raise ValueError(f"categorical_projection: values and probs must have shape (B, {n_atoms}) "
                         f"for z_values of shape {z_values.shape}, got values.shape={values.shape}, "
                         f"probs.shape={probs.shape}")
    xp = backend.get_array_module(values)
    v_min, v_max = z_values[0], z_values[-1]
    # clipped twice, as PFRL does: an inexact spacing must not put b outside [0, n_atoms - 1]
    b = xp.clip((xp.clip(values, v_min, v_max) - v_min) / (z_values[1] - v_min), 0, n_atoms - 1)
    atoms = xp.arange(n_atoms, dtype=b.dtype)
    weight = xp.maximum(0, 1 - xp.abs(b[:, :, None] - atoms))  # (B, source atom j, target atom i)
    return xp.einsum("bj,bji->bi", probs, weight.astype(probs.dtype, copy=False))


def categorical_cross_entropy(y, t) -> kusari.Variable:
    """``-sum_i t_i log(clip(y_i, 1e-10, 1))`` per row: the C51 loss of predictions ``y`` (Variable,
    (B, n_atoms)) towards target probabilities ``t`` (array, same shape); returns shape (B,)."""
    return -F.sum(t * F.log(F.clip(y, _LOG_FLOOR, 1.0)), axis=1)


class CategoricalDQN(DistributionalDQNBase):
    """Categorical DQN (C51): DQN on return distributions over fixed atoms.

    The target is the next state's greedy distribution of the target network, shifted by the
    n-step reward and discount and projected back onto the atoms; the loss is its cross-entropy
    with the predicted distribution of the action taken (the priorities of prioritized replay too).

    Same arguments and statistics as :class:`~kusari.rl.agents.dqn.DQN`, except that the
    ``q_function`` must return a :class:`~kusari.rl.action_value.DistributionalDiscreteActionValue`
    (e.g. ``DistributionalFCStateQFunctionWithDiscreteAction``) and ``clip_delta`` is ignored.
    """

    def _losses(self, exp_batch: dict[str, Any]):
        av = self.model(exp_batch["state"])
        check_action_value(type(self).__name__, av, DistributionalDiscreteActionValue)
        actions = exp_batch["action"]
        y = av.evaluate_actions_as_distribution(actions)
        target = self._target_distribution(exp_batch)
        losses = categorical_cross_entropy(y, target)
        return av.evaluate_actions(actions).array, losses, losses.array

    def _target_distribution(self, exp_batch: dict[str, Any]):
        """The projected n-step target distribution, an array of shape (B, n_atoms)."""
        target_next = eval_forward(self.target_model, exp_batch["next_state"])
        check_action_value(type(self).__name__, target_next, DistributionalDiscreteActionValue)
        next_dist = self._next_distribution(exp_batch, target_next).array
        z = target_next.z_values
        return categorical_projection(bellman_backup(exp_batch, z[None, :]).astype(next_dist.dtype),
                                      next_dist, z)

    def _next_distribution(self, exp_batch: dict[str, Any], target_next: DistributionalDiscreteActionValue):
        """The target network's distribution of its greedy next action, shape (B, n_atoms)."""
        return target_next.max_as_distribution


class CategoricalDoubleDQN(CategoricalDQN):
    """Categorical DQN with Double DQN's target: the model chooses the next action, the target
    network gives its distribution. Same arguments as :class:`CategoricalDQN`."""

    def _next_distribution(self, exp_batch: dict[str, Any], target_next: DistributionalDiscreteActionValue):
        greedy = eval_forward(self.model, exp_batch["next_state"]).greedy_actions
        return target_next.evaluate_actions_as_distribution(greedy)
