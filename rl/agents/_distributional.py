"""The update shared by the distributional DQNs (C51, QR-DQN, IQN): a per-example loss, weighted and accumulated."""
from typing import Any

import kusari.functions as F
from kusari import backend
from kusari.rl.agents.dqn import DQN
from kusari.rl.replay_buffer import batch_experiences


class DistributionalDQNBase(DQN):
    """DQN whose loss compares return distributions; a subclass gives :meth:`_losses`.

    The loss is ``sum_i w_i l_i`` over the B examples, divided by B when ``batch_accumulator`` is
    'mean' (``w_i`` = 1 without prioritized replay), as PFRL's distributional agents reduce it.
    ``clip_delta`` is accepted for DQN's signature and ignored.
    """

    def _losses(self, exp_batch: dict[str, Any]):
        """``(q, losses, errors)``: the Q-values to record (array), the per-example losses
        (Variable of shape (B,)) and the priorities for prioritized replay (array of shape (B,))."""
        raise NotImplementedError

    def update(self, experiences: list[list[dict[str, Any]]], errors_out: list | None = None) -> None:
        """One gradient step on a sampled minibatch (see :meth:`DQN.update`); ``errors_out`` gets
        the B per-example priorities of :meth:`_losses`."""
        exp_batch = batch_experiences(experiences, self.device, self.phi, self.gamma,
                                      batch_states=self.batch_states)
        weights = self._importance_weights(experiences)
        self.optimizer.target.cleargrads()
        q, losses, errors = self._losses(exp_batch)
        if weights is not None:
            losses = losses * weights.astype(losses.dtype, copy=False)
        loss = F.sum(losses)
        if self.batch_accumulator == "mean":
            loss = loss / losses.shape[0]
        loss.backward()
        self.q_record.extend(backend.to_cpu(q).ravel().tolist())
        self.loss_record.append(float(loss.array))
        if weights is not None or errors_out is not None:
            errors = backend.to_cpu(errors).tolist()
            if errors_out is not None:
                errors_out[:] = errors
            if weights is not None:
                self.replay_buffer.update_errors(errors)
        self._apply_gradients()


def bellman_backup(exp_batch: dict[str, Any], next_values):
    """``R + discount * (1 - terminal) * next_values`` per example, for values of shape (B, K)."""
    keep = exp_batch["discount"] * (1.0 - exp_batch["is_state_terminal"])
    return exp_batch["reward"][:, None] + keep[:, None] * next_values


def check_action_value(who: str, av, expected: type) -> None:
    """Refuse a q_function whose output is not the distributional action value the agent needs."""
    if not isinstance(av, expected):
        raise TypeError(f"{who}: the q_function must return a {expected.__name__}, got "
                        f"{type(av).__name__}")

