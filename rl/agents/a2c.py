"""A2C: synchronous advantage actor-critic (Mnih et al., 2016; Wu et al., 2017), PFRL's interface."""
from collections.abc import Callable, Sequence
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import backend
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agent import AttributeSavingMixin, BatchAgent
from kusari.rl.agents._common import (
    ObservationCheck,
    check_step,
    check_optimizer,
    place_model,
    refused_input,
    require,
    require_positive_int,
    split_policy_and_value,
)
from kusari.rl.utils import batch_states as default_batch_states


class A2C(AttributeSavingMixin, BatchAgent):
    """Advantage actor-critic trained on ``update_steps``-step rollouts of ``num_processes`` envs.

    The model maps a batch of observations to ``(action distribution, value)`` with the value of
    shape (batch_size, 1). Every ``update_steps`` calls of ``batch_observe`` the agent takes one
    gradient step on ``pi_loss_coef * L_pi + v_loss_coef * L_v - entropy_coeff * H``, with
    n-step returns (or GAE(tau) returns if ``use_gae``) bootstrapped from the last observations.

    Parameters
    ----------
    model : kusari.Link
    optimizer : kusari.Optimizer
        Already set up on ``model``.
    gamma : float
        Discount factor in [0, 1].
    num_processes : int
        Number of environments (observations per ``batch_act``).
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    update_steps : int
        Steps per environment between updates.
    phi : callable
        Feature extractor applied to each observation.
    pi_loss_coef, v_loss_coef, entropy_coeff : float
        Weights of the policy loss, the value loss and the entropy bonus.
    use_gae : bool
        Use GAE(tau) returns instead of n-step returns.
    tau : float
        GAE's lambda.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    max_grad_norm : float or None
        Clip the gradient's global L2 norm to this.
    average_actor_loss_decay, average_entropy_decay, average_value_decay : float
        Decays of the statistics' moving averages.
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input array.

    Statistics (PFRL's names): ``average_actor`` (policy loss), ``average_value`` (value loss),
    ``average_entropy``, exponential moving averages over updates.

    Unlike PFRL, which treats ``reset`` (truncation) as termination, a truncated episode
    bootstraps: its last reward becomes ``r + gamma * V(last observation)``.
    """

    saved_attributes = ("model", "optimizer", "t")

    def __init__(self, model: kusari.Link, optimizer: kusari.Optimizer, gamma: float,
                 num_processes: int, gpu: int | None = None, update_steps: int = 5,
                 phi: Callable = lambda x: x, pi_loss_coef: float = 1.0,
                 v_loss_coef: float = 0.5, entropy_coeff: float = 0.01, use_gae: bool = False,
                 tau: float = 0.95, act_deterministically: bool = False,
                 max_grad_norm: float | None = None, average_actor_loss_decay: float = 0.999,
                 average_entropy_decay: float = 0.999, average_value_decay: float = 0.999,
                 batch_states: Callable = default_batch_states):
        require("A2C", "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        require("A2C", "tau", tau, 0 <= tau <= 1, "in [0, 1]")
        for name, value in (("num_processes", num_processes), ("update_steps", update_steps)):
            require_positive_int("A2C", name, value)
        require("A2C", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("A2C", "optimizer", optimizer, model, "model")
        self.model = model
        self.optimizer = optimizer
        self.device = place_model(gpu, model)
        self.gamma = gamma
        self.num_processes = num_processes
        self.update_steps = update_steps
        self.phi = phi
        self.pi_loss_coef = pi_loss_coef
        self.v_loss_coef = v_loss_coef
        self.entropy_coeff = entropy_coeff
        self.use_gae = use_gae
        self.tau = tau
        self.act_deterministically = act_deterministically
        self.max_grad_norm = max_grad_norm
        self.average_actor_loss_decay = average_actor_loss_decay
        self.average_entropy_decay = average_entropy_decay
        self.average_value_decay = average_value_decay
        self.batch_states = batch_states

        self.t = 0
        self.t_start = 0
        self.average_actor_loss = 0.0
        self.average_value = 0.0
        self.average_entropy = 0.0

        self._observation_check = ObservationCheck("A2C")
        self._acted = False  # a batch_act awaits its batch_observe
        self._states = None  # (update_steps + 1, num_processes) + observation shape, then:
        self._actions = None  # (update_steps, num_processes) + action shape
        self._rewards = None  # (update_steps, num_processes), with truncation bootstraps added
        self._masks = None  # (update_steps, num_processes): 0 where the episode ended
        self._values = None  # (update_steps + 1, num_processes), for GAE

    def after_load(self) -> None:
        """A rollout collected before loading is dropped: the next batch_act starts a new one."""
        self.t_start = self.t
        self._acted = False

    def _model_input(self, batch_obs: Sequence[Any]) -> Any:
        if self.training and len(batch_obs) != self.num_processes:
            raise ValueError(f"A2C: num_processes is {self.num_processes}, got "
                             f"{len(batch_obs)} observations")
        x = self.batch_states(batch_obs, self.device, self.phi)
        if not backend.is_array(x):
            raise TypeError(f"A2C: batch_states must return one array (A2C stores observations "
                            f"in arrays), got {type(x).__name__}")
        self._observation_check.features(x)
        return x

    def _evaluate(self, x: Any):
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input("A2C", self.model, x):
            return split_policy_and_value("A2C", self.model(x), len(x))

    def _allocate(self, x: Any, action: Any) -> None:
        xp = backend.get_array_module(x)
        n, steps = self.num_processes, self.update_steps
        self._states = xp.zeros((steps + 1,) + x.shape, x.dtype)
        self._actions = xp.zeros((steps,) + action.shape, action.dtype)
        self._rewards = numpy.zeros((steps, n), numpy.float32)
        self._masks = numpy.ones((steps, n), numpy.float32)
        self._values = numpy.zeros((steps + 1, n), numpy.float32)

    def batch_act(self, batch_obs: Sequence[Any]) -> numpy.ndarray:
        """Actions for ``num_processes`` observations: sampled while training; in eval mode the
        most probable ones if ``act_deterministically``.

        Returns
        -------
        numpy.ndarray (num_processes,) + action shape.
        """
        x = self._model_input(batch_obs)
        distrib, value = self._evaluate(x)
        self._observation_check.confirm()
        if self.training:
            action = distrib.sample().array
            if self._states is None:
                self._allocate(x, action)
            i = self.t - self.t_start
            self._states[i] = x
            self._actions[i] = action
            self._values[i] = backend.to_cpu(value.array[:, 0])
            self._acted = True
        elif self.act_deterministically:
            action = distrib.most_probable.array
        else:
            action = distrib.sample().array
        return numpy.array(backend.to_cpu(action))

    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Record one step of every environment; update after ``update_steps`` of them.

        Nothing happens in eval mode, nor for an observation that no ``batch_act`` preceded.
        """
        if not self.training or not self._acted:
            return
        # everything is checked and computed before the first change, so a refused step is not half recorded
        check_step("A2C.batch_observe", batch_obs, batch_reward, batch_done, batch_reset,
                   self.num_processes)
        x = self._model_input(batch_obs)
        terminal = numpy.asarray(batch_done, dtype=bool)
        ends = terminal | numpy.asarray(batch_reset, dtype=bool)
        rewards = numpy.asarray(batch_reward, dtype=numpy.float32)
        truncated = ends & ~terminal
        if truncated.any():
            # the episode goes on beyond the time limit: its value stands in for the rest
            _, value = self._evaluate(x)
            rewards = rewards + self.gamma * numpy.where(
                truncated, backend.to_cpu(value.array[:, 0]), 0).astype(numpy.float32)
        self._acted = False
        self.t += 1
        i = self.t - self.t_start
        self._rewards[i - 1] = rewards
        self._masks[i - 1] = ~ends
        self._states[i] = x
        if i == self.update_steps:
            self._update()

    def _returns(self, next_value: numpy.ndarray) -> numpy.ndarray:
        """Targets of the value function, (update_steps, num_processes)."""
        returns = numpy.empty_like(self._rewards)
        if self.use_gae:
            values = self._values
            values[-1] = next_value
            gae = numpy.zeros_like(next_value)
            for i in range(self.update_steps - 1, -1, -1):
                delta = self._rewards[i] + self.gamma * values[i + 1] * self._masks[i] - values[i]
                gae = delta + self.gamma * self.tau * self._masks[i] * gae
                returns[i] = gae + values[i]
        else:
            ret = next_value
            for i in range(self.update_steps - 1, -1, -1):
                ret = self._rewards[i] + self.gamma * ret * self._masks[i]
                returns[i] = ret
        return returns

    def _update(self) -> None:
        steps, n = self.update_steps, self.num_processes
        _, next_value = self._evaluate(self._states[-1])
        returns = self._returns(backend.to_cpu(next_value.array[:, 0]))
        distrib, values = split_policy_and_value(
            "A2C", self.model(self._states[:-1].reshape((steps * n,) + self._states.shape[2:])),
            steps * n)
        actions = self._actions.reshape((steps * n,) + self._actions.shape[2:])
        log_probs = F.reshape(distrib.log_prob(actions), (steps, n))
        entropy = F.mean(distrib.entropy)
        xp = backend.get_array_module(self._states)
        advantages = xp.asarray(returns) - F.reshape(values, (steps, n))
        value_loss = F.mean(advantages * advantages)
        actor_loss = -F.mean(advantages.array * log_probs)
        loss = (self.v_loss_coef * value_loss + self.pi_loss_coef * actor_loss
                - self.entropy_coeff * entropy)
        self.model.cleargrads()
        loss.backward()
        if self.max_grad_norm is not None:
            GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self._states[0] = self._states[-1]
        self.t_start = self.t

        self.average_actor_loss += (1 - self.average_actor_loss_decay) * (
            float(actor_loss.array) - self.average_actor_loss)
        self.average_value += (1 - self.average_value_decay) * (
            float(value_loss.array) - self.average_value)
        self.average_entropy += (1 - self.average_entropy_decay) * (
            float(entropy.array) - self.average_entropy)

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [
            ("average_actor", self.average_actor_loss),
            ("average_value", self.average_value),
            ("average_entropy", self.average_entropy),
        ]
