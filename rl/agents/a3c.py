"""A3C: asynchronous advantage actor-critic (Mnih et al., 2016), PFRL's interface."""
import contextlib
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agent import AsyncAgent, AttributeSavingMixin
from kusari.rl.agents._common import (
    ObservationCheck,
    check_optimizer,
    check_step,
    refused_input,
    require,
    require_positive_int,
    split_policy_and_value,
)
from kusari.rl.utils import batch_states as default_batch_states
from kusari.rl.utils import copy_param


class A3C(AttributeSavingMixin, AsyncAgent):
    """Advantage actor-critic whose copies in several processes update one shared model.

    ``model`` is the shared model, the one ``optimizer`` is set up on; the agent acts and computes
    gradients with a process-local copy, ``self.model``, which takes the shared parameters at the
    start of each rollout (and on entering eval mode). A rollout ends after ``t_max`` steps or with
    its episode; its loss, over its ``n`` steps with returns ``R_i`` bootstrapped from ``V`` of the
    last observation (0 when the episode terminated), is

    ``pi_loss_coef * sum_i(-A_i * log pi(a_i|s_i) - beta * H(pi(.|s_i)))
    + v_loss_coef * sum_i((V(s_i) - R_i)**2) / 2`` with ``A_i = R_i - V(s_i)`` (no gradient),

    whose gradient, taken on the local copy, becomes the shared model's and takes one optimizer
    step there (Hogwild: processes do not lock). :func:`kusari.rl.experiments.train_agent_async`
    puts ``shared_attributes`` into shared memory and runs the processes.

    Parameters
    ----------
    model : kusari.Link
        Maps a batch of observations to ``(action distribution, value of shape (B, 1))``.
    optimizer : kusari.Optimizer
        Set up on ``model`` (e.g. ``kusari.rl.optimizers.SharedRMSpropEpsInsideSqrt``).
    t_max : int
        Steps per rollout.
    gamma : float
        Discount factor in [0, 1].
    beta : float
        Weight of the entropy bonus (>= 0).
    process_idx : int
        This copy's process index (0 evaluates in ``train_agent_async``).
    phi : callable
        Feature extractor applied to each observation.
    pi_loss_coef, v_loss_coef : float
        Weights of the policy and value losses.
    keep_loss_scale_same : bool
        Scale the loss of a rollout cut short by its episode by ``t_max / n``.
    normalize_grad_by_t_max : bool
        Divide the loss by the rollout's length ``n`` (PFRL's name).
    use_average_reward : bool
        Not supported (PFRL accepts it and ignores it): True raises NotImplementedError.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    max_grad_norm : float or None
        Clip the gradient's global L2 norm to this.
    recurrent : bool
        Not supported: True raises NotImplementedError.
    average_entropy_decay, average_value_decay : float
        Decays of the statistics' moving averages.
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input array.

    Statistics (PFRL's names): ``average_value`` and ``average_entropy``, moving averages over the
    training steps of ``V(s)`` and of the policy's entropy at ``s``. They are this process's own.
    """

    saved_attributes = ("model", "optimizer", "t")

    def __init__(self, model: kusari.Link, optimizer: kusari.Optimizer, t_max: int, gamma: float,
                 beta: float = 1e-2, process_idx: int = 0, phi: Callable = lambda x: x,
                 pi_loss_coef: float = 1.0, v_loss_coef: float = 0.5,
                 keep_loss_scale_same: bool = False, normalize_grad_by_t_max: bool = False,
                 use_average_reward: bool = False, act_deterministically: bool = False,
                 max_grad_norm: float | None = None, recurrent: bool = False,
                 average_entropy_decay: float = 0.999, average_value_decay: float = 0.999,
                 batch_states: Callable = default_batch_states):
        if recurrent:
            raise NotImplementedError("A3C: recurrent=True is not supported yet")
        if use_average_reward:
            raise NotImplementedError("A3C: use_average_reward=True is not supported (PFRL ignores "
                                      "it silently)")
        require_positive_int("A3C", "t_max", t_max)
        require("A3C", "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        require("A3C", "beta", beta, beta >= 0, ">= 0")
        require("A3C", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("A3C", "optimizer", optimizer, model, "model")
        self.shared_model = model
        self.model = model.copy(mode="copy")
        self.optimizer = optimizer
        self.t_max = t_max
        self.gamma = gamma
        self.beta = beta
        self.process_idx = process_idx
        self.phi = phi
        self.pi_loss_coef = pi_loss_coef
        self.v_loss_coef = v_loss_coef
        self.keep_loss_scale_same = keep_loss_scale_same
        self.normalize_grad_by_t_max = normalize_grad_by_t_max
        self.use_average_reward = use_average_reward
        self.act_deterministically = act_deterministically
        self.max_grad_norm = max_grad_norm
        self.recurrent = recurrent
        self.average_entropy_decay = average_entropy_decay
        self.average_value_decay = average_value_decay
        self.batch_states = batch_states

        self.t = 0
        self.t_start = 0
        self.average_value = 0.0
        self.average_entropy = 0.0
        self._observation_check = ObservationCheck("A3C")
        self._past_obs: list = []  # the rollout so far, one entry per step
        self._past_actions: list = []
        self._past_rewards: list = []

    @property
    def process_idx(self) -> int | None:
        return self._process_idx

    @process_idx.setter
    def process_idx(self, value: int | None) -> None:
        require("A3C", "process_idx", value, value is None or (
            isinstance(value, (int, numpy.integer)) and not isinstance(value, bool) and value >= 0),
            "None or an int >= 0")
        self._process_idx = value

    @property
    def shared_attributes(self) -> tuple[str, ...]:
        return ("shared_model", "optimizer")

    def sync_parameters(self) -> None:
        """Copy the shared model's parameters into the local model."""
        copy_param(target_link=self.model, source_link=self.shared_model)

    def _model_input(self, batch_obs: list) -> Any:
        x = self.batch_states(batch_obs, None, self.phi)
        self._observation_check.features(x)
        return x

    def _forward(self, x: Any, train: bool):
        with kusari.no_backprop_mode(), kusari.using_config("train", train), \
                refused_input("A3C", self.model, x):
            return split_policy_and_value("A3C", self.model(x), len(x))

    def act(self, obs: Any) -> Any:
        """The action for ``obs``: sampled while training; in eval mode the most probable one if
        ``act_deterministically``.

        Returns
        -------
        numpy.ndarray of the action's shape (a 0-d integer array for a discrete action).
        """
        if self.training and not self._past_obs:
            self.sync_parameters()  # a rollout starts from the shared parameters
        x = self._model_input([obs])
        distrib, value = self._forward(x, train=self.training)
        self._observation_check.confirm()
        if not self.training:
            action = distrib.most_probable if self.act_deterministically else distrib.sample()
            return numpy.asarray(action.array[0])
        action = numpy.asarray(distrib.sample().array[0])
        self._past_obs.append(obs)
        self._past_actions.append(action)
        self.average_value += (1 - self.average_value_decay) * (
            float(value.array[0, 0]) - self.average_value)
        self.average_entropy += (1 - self.average_entropy_decay) * (
            float(distrib.entropy.array[0]) - self.average_entropy)
        return action

    def observe(self, obs: Any, reward: float, done: bool, reset: bool) -> None:
        """Record the step's reward; update after ``t_max`` steps or at the episode's end.

        Nothing happens in eval mode, nor for an observation that no training ``act`` preceded.
        """
        if not self.training or len(self._past_rewards) == len(self._past_obs):
            return
        check_step("A3C.observe", [obs], [reward], [done], [reset])
        ends_rollout = len(self._past_rewards) + 1 == self.t_max or done or reset
        # a terminal state is worth nothing; a truncated episode goes on beyond its last state.
        # That value is computed before anything is recorded: an obs the model refuses records nothing
        next_value = self._value(obs) if ends_rollout and not done else 0.0
        self.t += 1
        self._past_rewards.append(float(reward))
        if ends_rollout:
            self._update(next_value)

    def _value(self, obs: Any) -> float:
        """The model's value of ``obs``, without graph."""
        _, value = self._forward(self._model_input([obs]), train=False)
        return float(value.array[0, 0])

    def _returns(self, next_value: float) -> numpy.ndarray:
        """Discounted returns of the rollout's steps, (n,) float32, bootstrapped from
        ``next_value``."""
        ret = next_value
        returns = numpy.empty(len(self._past_rewards), numpy.float32)
        for i in range(len(returns) - 1, -1, -1):
            ret = self._past_rewards[i] + self.gamma * ret
            returns[i] = ret
        return returns

    def _update(self, next_value: float) -> None:
        n = len(self._past_rewards)
        returns = self._returns(next_value)
        pi_factor, v_factor = self.pi_loss_coef, self.v_loss_coef
        if self.keep_loss_scale_same and n < self.t_max:
            pi_factor *= self.t_max / n
            v_factor *= self.t_max / n
        if self.normalize_grad_by_t_max:
            pi_factor /= n
            v_factor /= n

        distrib, values = split_policy_and_value(
            "A3C", self.model(self._model_input(self._past_obs)), n)
        log_probs = distrib.log_prob(numpy.stack(self._past_actions))
        advantages = returns - values.array[:, 0]
        pi_loss = F.sum(-advantages * log_probs - self.beta * distrib.entropy)
        v_loss = F.sum(F.square(values - returns[:, None])) / 2
        loss = pi_factor * pi_loss + v_factor * v_loss

        self.model.cleargrads()
        loss.backward()
        local_params = dict(self.model.namedparams())
        for name, param in self.shared_model.namedparams():
            param.grad = local_params[name].grad
        if self.max_grad_norm is not None:
            GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self._past_obs, self._past_actions, self._past_rewards = [], [], []
        self.t_start = self.t

    @contextlib.contextmanager
    def eval_mode(self):
        """Evaluate with the shared model's current parameters (copied into the local model)."""
        self.sync_parameters()
        with super().eval_mode():
            yield

    def before_save(self) -> None:
        """The shared model's parameters are saved (as ``model``)."""
        self.sync_parameters()

    def after_load(self) -> None:
        """The loaded parameters become the shared ones; a rollout collected before is dropped."""
        copy_param(target_link=self.shared_model, source_link=self.model)
        self._past_obs, self._past_actions, self._past_rewards = [], [], []
        self.t_start = self.t

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [
            ("average_value", self.average_value),
            ("average_entropy", self.average_entropy),
        ]
