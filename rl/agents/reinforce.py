"""REINFORCE: Williams's episodic policy gradient (1992), on PFRL's interface."""
import logging
import warnings
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
import numpy
from kusari import backend
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agent import Agent, AttributeSavingMixin
from kusari.rl.agents._common import (
    ObservationCheck,
    check_step,
    check_optimizer,
    concat_batches,
    place_model,
    refused_input,
    require,
    require_positive_int,
)
from kusari.rl.utils import batch_states as default_batch_states


def _check_distribution(out: Any) -> Any:
    if not hasattr(out, "log_prob"):
        raise TypeError(f"REINFORCE: the model must return an action distribution (e.g. end in "
                        f"a kusari.rl.policies head), got {type(out).__name__}")
    return out


class REINFORCE(AttributeSavingMixin, Agent):
    """Episodic REINFORCE: after ``batchsize`` episodes, one step on
    ``sum_t (-R_t log pi(a_t|s_t) - beta H(pi(.|s_t))) / batchsize``, ``R_t`` the undiscounted
    sum of the episode's rewards from step t on.

    Parameters
    ----------
    model : kusari.Link
        Maps a batch of observations to an action distribution.
    optimizer : kusari.Optimizer
        Already set up on ``model``.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    beta : float
        Weight of the entropy bonus.
    phi : callable
        Feature extractor applied to each observation.
    batchsize : int
        Episodes per update.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    average_entropy_decay : float
        Decay of the ``average_entropy`` statistic's moving average.
    backward_separately : bool
        Backpropagate each episode as it ends and accumulate gradients (less memory).
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input.
    recurrent : bool
        Recurrent models are not supported: True raises NotImplementedError.
    max_grad_norm : float or None
        Clip the gradient's global L2 norm to this.
    logger : logging.Logger or None

    Only terminated episodes (``done``) are learned from: an episode that ends by ``reset``
    alone (truncation) is dropped with a warning, as in PFRL. Actions are drawn without a graph
    and the episode's log-probabilities are recomputed in one batch at the update; the model
    acts with ``train=False`` and learns with ``train=True``.
    """

    saved_attributes = ("model", "optimizer", "t")

    def __init__(self, model: kusari.Link, optimizer: kusari.Optimizer, gpu: int | None = None,
                 beta: float = 0, phi: Callable = lambda x: x, batchsize: int = 1,
                 act_deterministically: bool = False, average_entropy_decay: float = 0.999,
                 backward_separately: bool = False, batch_states: Callable = default_batch_states,
                 recurrent: bool = False, max_grad_norm: float | None = None,
                 logger: logging.Logger | None = None):
        if recurrent:
            raise NotImplementedError("REINFORCE: recurrent=True is not supported (kusari.rl has "
                                      "no recurrent models yet)")
        require_positive_int("REINFORCE", "batchsize", batchsize)
        require("REINFORCE", "max_grad_norm", max_grad_norm,
                max_grad_norm is None or max_grad_norm > 0, "None or > 0")
        check_optimizer("REINFORCE", "optimizer", optimizer, model, "model")
        self.model = model
        self.optimizer = optimizer
        self.device = place_model(gpu, model)
        self.beta = beta
        self.phi = phi
        self.batchsize = batchsize
        self.act_deterministically = act_deterministically
        self.average_entropy_decay = average_entropy_decay
        self.backward_separately = backward_separately
        self.batch_states = batch_states
        self.recurrent = recurrent
        self.max_grad_norm = max_grad_norm
        self.logger = logger or logging.getLogger(__name__)

        self.average_entropy = 0.0
        self.t = 0
        self.n_backward = 0
        self._observation_check = ObservationCheck("REINFORCE")
        self._pending: tuple[Any, Any] | None = None  # (model input, action) awaiting observe
        self._episode: tuple[list, list, list] = ([], [], [])  # inputs, actions, rewards
        self._episodes: list[tuple[list, list, list]] = []  # finished, not yet learned from

    def act(self, obs: Any) -> Any:
        """The action for ``obs``: sampled while training; in eval mode the most probable one if
        ``act_deterministically``. A NumPy scalar or array, as the distribution's events."""
        x = self.batch_states([obs], self.device, self.phi)
        self._observation_check.features(x)
        with kusari.no_backprop_mode(), kusari.using_config("train", False), \
                refused_input("REINFORCE.act", self.model, x):
            distrib = _check_distribution(self.model(x))
            if self.training or not self.act_deterministically:
                action = distrib.sample().array
            else:
                action = distrib.most_probable.array
        self._observation_check.confirm()
        if self.training:
            self._pending = (x, action)
        return numpy.array(backend.to_cpu(action))[0]

    def observe(self, obs: Any, reward: float, done: bool, reset: bool) -> None:
        """Record the reward; learn when ``batchsize`` terminated episodes are complete.

        Nothing happens in eval mode, nor for an observation that no ``act`` preceded.
        """
        if not self.training or self._pending is None:
            return
        check_step("REINFORCE.observe", [obs], [reward], [done], [reset])
        inputs, actions, rewards = self._episode
        inputs.append(self._pending[0])
        actions.append(self._pending[1])
        rewards.append(float(reward))
        self._pending = None
        self.t += 1
        if not (done or reset):
            return
        episode, self._episode = self._episode, ([], [], [])
        if not done:
            warnings.warn("REINFORCE learns from terminated episodes only: an episode that "
                          "ended with reset=True and done=False is dropped")
            return
        self._episodes.append(episode)
        if self.backward_separately:
            self._accumulate_grad()
            if self.n_backward == self.batchsize:
                self._step()
        elif len(self._episodes) == self.batchsize:
            self._accumulate_grad()
            self._step()

    def _accumulate_grad(self) -> None:
        """Backpropagate the loss of the finished episodes (divided by ``batchsize``)."""
        if self.n_backward == 0:
            self.model.cleargrads()
        episodes, self._episodes = self._episodes, []
        x = concat_batches([x for inputs, _, _ in episodes for x in inputs])
        actions = concat_batches([a for _, actions, _ in episodes for a in actions])
        returns = numpy.concatenate([numpy.cumsum(rewards[::-1])[::-1]
                                     for _, _, rewards in episodes]).astype(numpy.float32)
        distrib = _check_distribution(self.model(x))
        entropy = distrib.entropy
        xp = backend.get_array_module(entropy.array)
        loss = F.sum(-xp.asarray(returns) * distrib.log_prob(actions)
                     - self.beta * entropy) / self.batchsize
        loss.backward()
        self.n_backward += 1
        for h in backend.to_cpu(entropy.array).tolist():
            self.average_entropy += (1 - self.average_entropy_decay) * (h - self.average_entropy)
        self.logger.debug("REINFORCE: backward over %d episodes, %d steps, loss %f",
                          len(episodes), len(returns), float(loss.array))

    def _step(self) -> None:
        if self.max_grad_norm is not None:
            GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self.n_backward = 0

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [("average_entropy", self.average_entropy)]
