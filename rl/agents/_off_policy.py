"""What DDPG, TD3 and SAC share: recording transitions, scheduling replay updates, checking inputs.

Updates are scheduled by :class:`kusari.rl.replay_buffer.ReplayUpdater`; the subclasses own their
networks, their losses and the way their target networks follow
(:func:`kusari.rl.utils.synchronize_parameters`).
"""
import copy
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
    check_first_layer,
    check_step,
    place_model,
    refused_input,
    require,
    store_transition,
)
from kusari.rl.replay_buffer import ReplayUpdater, batch_experiences


class _OffPolicyActorCritic(AttributeSavingMixin, BatchAgent):
    """Transition recording, the replay-update schedule and input checks of DDPG, TD3 and SAC.

    A subclass implements ``update(experiences)`` (and ``_training_actions(batch_obs)`` when it
    explores otherwise than through ``self.explorer``), names in
    ``_burnin_counter`` the counter whose zero means "not updated yet" (``burnin_action_func``
    acts until then), and may override ``_after_step`` (called after each observed step).
    """

    replay_buffer_attributes = ("replay_buffer",)
    _burnin_counter = "n_updates"

    def _setup_off_policy(self, replay_buffer, gamma: float, gpu: int | None,
                          replay_start_size: int, minibatch_size: int, update_interval: int,
                          n_times_update: int, phi: Callable, batch_states: Callable,
                          burnin_action_func: Callable | None, logger,
                          models: dict[str, kusari.Link]) -> None:
        """Check and store the arguments every such agent takes; send ``models`` (argument name ->
        network) to ``gpu``."""
        agent = type(self).__name__
        for name, link in models.items():
            if next(iter(link.params()), None) is None:
                # a PFRL user's torch module registers every layer it is given; a Chain only those
                # assigned in init_scope, and a critic without parameters never learns
                raise ValueError(f"{agent}: {name} ({type(link).__name__}) has no parameters to "
                                 "train; a Chain registers only the links assigned inside "
                                 "`with self.init_scope():`")
        require(agent, "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        self.replay_updater = ReplayUpdater(replay_buffer, self.update, minibatch_size, False,
                                            n_times_update, replay_start_size, update_interval,
                                            who=agent)
        self.replay_buffer = replay_buffer
        self.gamma = gamma
        self.device = place_model(gpu, *models.values())
        self.replay_start_size = replay_start_size
        self.minibatch_size = minibatch_size
        self.update_interval = update_interval
        self.n_times_update = n_times_update
        self.phi = phi
        self.batch_states = batch_states
        self.burnin_action_func = burnin_action_func
        self.logger = logger
        self.t = 0
        self.batch_last_obs: list[Any] = []
        self.batch_last_action: list[Any] = []
        self._observation_check = ObservationCheck(agent)
        self._checked_actions = False

    @staticmethod
    def _make_target(link: kusari.Link) -> kusari.Link:
        """A deep copy of ``link`` (as DQN's, PFRL's and ChainerRL's targets), with no gradients and
        no update rules.

        ``Link.copy`` copies only registered children and parameters: a user network that also
        reaches its layers through a list, a dict or a bound method would get a target that runs the
        online layers, so the critics would bootstrap from themselves and the Polyak steps would
        move arrays that nothing reads.
        """
        target = copy.deepcopy(link)
        for param in target.params():
            param.update_rule = None  # the copied optimizer state: a target is never optimized
        target.cleargrads()
        return target

    # acting -------------------------------------------------------------------------------
    def batch_act(self, batch_obs: Sequence[Any]) -> list[Any]:
        """One action per observation: explored/sampled while training, the policy's in eval mode.

        Parameters
        ----------
        batch_obs : sequence of B observations (arrays of one shape and dtype)

        Returns
        -------
        list of B actions, float arrays of shape (action_size,)
        """
        self._observation_check.observations(batch_obs, "batch_act")
        if not self.training:
            batch_action = list(self._eval_actions(batch_obs))
            self._observation_check.confirm()
            return batch_action
        if self.burnin_action_func is not None and getattr(self, self._burnin_counter) == 0:
            if self._observation_check.signature is None:  # no policy call yet to refuse them
                check_first_layer(f"{type(self).__name__}.batch_act", self.policy,
                                  self.batch_states(batch_obs, self.device, self.phi))
            batch_action = [self.burnin_action_func() for _ in range(len(batch_obs))]
            self._check_actions(numpy.asarray(batch_action), "burnin_action_func")
        else:
            batch_action = self._training_actions(batch_obs)
        self._observation_check.confirm()
        n = len(batch_obs)
        if len(self.batch_last_obs) < n:
            grow = n - len(self.batch_last_obs)
            self.batch_last_obs.extend([None] * grow)
            self.batch_last_action.extend([None] * grow)
        self.batch_last_obs[:n] = batch_obs
        self.batch_last_action[:n] = batch_action
        return batch_action

    def _training_actions(self, batch_obs) -> list:
        """The policy's actions, each passed through ``self.explorer`` (DDPG, TD3)."""
        greedy = self._policy_actions(batch_obs, deterministic=False)
        return [self.explorer.select_action(self.t, lambda a=a: a) for a in greedy]

    def _eval_actions(self, batch_obs):
        return self._policy_actions(batch_obs, deterministic=False)

    def _policy_actions(self, batch_obs, deterministic: bool) -> numpy.ndarray:
        """The policy's actions (B, action_size) as a NumPy array, without a graph."""
        xs = self.batch_states(batch_obs, self.device, self.phi)
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input(f"{type(self).__name__}.batch_act", self.policy, xs):
            if self._checked_actions:
                distribution = self.policy(xs)
            else:
                distribution = self._first_policy_call(xs)
            action = distribution.mode if deterministic else distribution.sample()
        action = action.array
        if not self._checked_actions:
            self._check_actions(action, "the policy")
            self._checked_actions = True
        return action if self.device is None else backend.to_cpu(action)

    def _first_policy_call(self, xs):
        try:
            return self.policy(xs)
        except (TypeError, ValueError) as e:
            raise type(e)(f"{type(self).__name__}: the policy cannot take the observations "
                          f"(batch of shape {getattr(xs, 'shape', None)}, dtype "
                          f"{getattr(xs, 'dtype', None)}): {e}") from e

    def _check_actions(self, action, source: str) -> None:
        agent = type(self).__name__
        if action.dtype.kind != "f" or action.ndim != 2:
            raise TypeError(f"{agent}: continuous actions are float vectors, but {source} gave "
                            f"{action.dtype} actions of batch shape {action.shape}; {agent} "
                            "cannot act in a discrete action space (use a Box action space and "
                            "a DeterministicHead or SquashedDiagonalGaussianHead policy)")

    # observing ----------------------------------------------------------------------------
    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        """Store each environment's transition and update when the schedule says so.

        ``done`` (gymnasium's terminated) stores a terminal transition; ``reset`` (truncated)
        ends the episode without one, so its last state is bootstrapped from. In eval mode
        nothing is stored and no counter moves.
        """
        if not self.training:
            return
        check_step(f"{type(self).__name__}.batch_observe", batch_obs, batch_reward, batch_done,
                   batch_reset)
        n = len(batch_obs)
        self._observation_check.observations(batch_obs, "batch_observe")
        last_obs, last_action = self.batch_last_obs, self.batch_last_action
        for i in range(n):
            self.t += 1
            self._after_step()
            store_transition(self.replay_buffer, last_obs, last_action, i, batch_obs[i],
                             batch_reward[i], batch_done[i], batch_reset[i])
            self.replay_updater.update_if_necessary(self.t)

    def _after_step(self) -> None:
        """Called once per environment step while training, after ``t`` advanced."""

    # updating -----------------------------------------------------------------------------
    def _batch(self, experiences: list[list[dict]]) -> dict[str, Any]:
        return batch_experiences(experiences, self.device, self.phi, self.gamma,
                                 batch_states=self.batch_states)

    def _flat_values(self, values: kusari.Variable, batch_size: int, who: str) -> kusari.Variable:
        """A critic's (B, 1) output as (B,); anything else is refused."""
        if values.size != batch_size:
            raise ValueError(f"{type(self).__name__}: {who} must return one value per "
                             f"(state, action) pair, shape ({batch_size}, 1), got {values.shape}")
        return F.reshape(values, (batch_size,))

    def _minimize(self, loss: kusari.Variable, *optimizers) -> None:
        """Backpropagate ``loss`` and step each optimizer (after clipping, if ``max_grad_norm``).

        One backward serves several optimizers when ``loss`` sums their independent losses. Only the
        optimizers' parameters get gradients: a policy loss computed through the critics computes
        no weight gradients for the critics.
        """
        params = []
        for optimizer in optimizers:
            optimizer.target.cleargrads()
            params.extend(optimizer.target.params())
        kusari.grad([loss], params, set_grad=True)
        self._step(*optimizers)

    def _step(self, *optimizers) -> None:
        """Step each optimizer on the gradients its parameters hold, after clipping them to
        ``max_grad_norm`` (if the agent has one)."""
        max_grad_norm = getattr(self, "max_grad_norm", None)
        for optimizer in optimizers:
            if max_grad_norm is not None:
                GradientClipping(max_grad_norm)(optimizer)
            optimizer.update()

    def _targets(self, batch: dict[str, Any], next_value) -> numpy.ndarray:
        """``r + discount * (1 - terminal) * next_value``: the n-step bootstrapped target (B,)."""
        return batch["reward"] + batch["discount"] * (1.0 - batch["is_state_terminal"]) * next_value

    def _step_twin_critics(self, batch: dict[str, Any], target_q: numpy.ndarray, loss_scale: float) -> None:
        """One step of ``q_func1`` and ``q_func2`` towards ``target_q`` (B,) on
        ``loss_scale * mean squared error`` each, recording their values and losses (TD3, SAC)."""
        state, batch_size = batch["state"], len(batch["reward"])
        predict_q1 = self._flat_values(self.q_func1((state, batch["action"])), batch_size, "q_func1")
        predict_q2 = self._flat_values(self.q_func2((state, batch["action"])), batch_size, "q_func2")
        loss1 = F.mean_squared_error(predict_q1, target_q) * loss_scale
        loss2 = F.mean_squared_error(predict_q2, target_q) * loss_scale
        self.q1_record.extend(predict_q1.array.tolist())
        self.q2_record.extend(predict_q2.array.tolist())
        self.q_func1_loss_record.append(float(loss1.array))
        self.q_func2_loss_record.append(float(loss2.array))
        # the critics share no parameter, so one backward of the sum gives each its own gradient
        self._minimize(loss1 + loss2, self.q_func1_optimizer, self.q_func2_optimizer)
