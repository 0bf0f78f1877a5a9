"""PPO: Proximal Policy Optimization (Schulman et al., 2017) with GAE(lambda), on PFRL's interface."""
import collections
from collections.abc import Callable
from typing import Any

import kusari
import kusari.functions as F
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agents._common import (
    check_optimizer,
    mean_or_nan,
    place_model,
    require,
    require_positive_int,
    split_policy_and_value,
)
from kusari.rl.agents._on_policy import OnPolicyAgent, check_obs_normalizer
from kusari.rl.agents._on_policy import generalized_advantages  # noqa: F401 (PPO's GAE, imported from here)
from kusari.rl.agents._recurrent_on_policy import RecurrentRollouts
from kusari.rl.utils import batch_states as default_batch_states
from kusari.rl.utils.recurrent import check_recurrence, forward

class PPO(RecurrentRollouts, OnPolicyAgent):
    """Proximal Policy Optimization with a clipped surrogate objective and GAE(lambda).

    The model maps a batch of observations to ``(action distribution, value)`` with the value of
    shape (batch_size, 1), e.g. ``kusari.rl.nn.Branched(policy, value_function)``. The agent
    collects ``update_interval`` transitions (over all environments of ``batch_act``), then
    trains for ``epochs`` passes over them in minibatches of ``minibatch_size``.

    Parameters
    ----------
    model : kusari.Link
    optimizer : kusari.Optimizer
        Already set up on ``model``; its hyperparameters (``lr``, ``alpha``) are read at each step.
    obs_normalizer : kusari.rl.nn.EmpiricalNormalization, optional
        Normalizes the observations the model sees (acting, the rollout's values and
        log-probabilities, the minibatches) without learning from them; at each update it learns
        from the whole rollout's observations once, after the rollout's values and
        log-probabilities and before the first epoch (PFRL's order). Saved with the agent.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    gamma, lambd : float
        Discount factor and GAE's lambda, in [0, 1].
    phi : callable
        Feature extractor applied to each observation.
    value_func_coef, entropy_coef : float
        Weights of the value loss and of the entropy bonus.
    update_interval, minibatch_size, epochs : int
    clip_eps : float
        Clipping range of the probability ratio; read at every update, so a step hook may
        schedule ``agent.clip_eps``.
    clip_eps_vf : float or None
        Clipping range of the value around its old prediction; None: no value clipping.
    standardize_advantages : bool
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input.
    recurrent : bool
        True for a recurrent model (:func:`kusari.rl.nn.is_recurrent`, e.g. a
        ``kusari.rl.nn.RecurrentSequential`` ending in a ``Branched`` policy/value head), and
        only then: each environment's recurrent state is kept while acting and restarts at
        episode ends; updates run the rollout's sequences from the states they had when acting
        (see ``kusari.rl.agents._recurrent_on_policy.RecurrentRollouts``).
    max_recurrent_sequence_len : int or None
        Longest sequence of an update (an episode is cut into pieces); None: whole episodes
        within the rollout.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    max_grad_norm : float or None
        Clip the gradient's global L2 norm to this.
    value_stats_window, entropy_stats_window, value_loss_stats_window, policy_loss_stats_window : int
        Window sizes of the statistics.

    Statistics: ``average_value`` and ``average_entropy`` over the states of recent iterations
    (recorded when an iteration's data is processed), ``average_value_loss`` and
    ``average_policy_loss`` over recent minibatches, ``n_updates`` (minibatch updates so far)
    and ``explained_variance`` of the last iteration.
    """

    saved_attributes = ("model", "optimizer", "obs_normalizer", "n_updates")

    def __init__(self, model: kusari.Link, optimizer: kusari.Optimizer,
                 obs_normalizer: kusari.Link | None = None, gpu: int | None = None,
                 gamma: float = 0.99, lambd: float = 0.95, phi: Callable = lambda x: x,
                 value_func_coef: float = 1.0, entropy_coef: float = 0.01,
                 update_interval: int = 2048, minibatch_size: int = 64, epochs: int = 10,
                 clip_eps: float = 0.2, clip_eps_vf: float | None = None,
                 standardize_advantages: bool = True, batch_states: Callable = default_batch_states,
                 recurrent: bool = False, max_recurrent_sequence_len: int | None = None,
                 act_deterministically: bool = False, max_grad_norm: float | None = None,
                 value_stats_window: int = 1000, entropy_stats_window: int = 1000,
                 value_loss_stats_window: int = 100, policy_loss_stats_window: int = 100):
        check_recurrence("PPO", "model", model, recurrent)
        check_obs_normalizer("PPO", obs_normalizer)
        if max_recurrent_sequence_len is not None:
            require_positive_int("PPO", "max_recurrent_sequence_len", max_recurrent_sequence_len)
        require("PPO", "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        require("PPO", "lambd", lambd, 0 <= lambd <= 1, "in [0, 1]")
        for name, value in (("update_interval", update_interval),
                            ("minibatch_size", minibatch_size), ("epochs", epochs)):
            require_positive_int("PPO", name, value)
        require("PPO", "clip_eps", clip_eps, clip_eps > 0, "> 0")
        require("PPO", "clip_eps_vf", clip_eps_vf, clip_eps_vf is None or clip_eps_vf > 0,
                "None or > 0")
        require("PPO", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("PPO", "optimizer", optimizer, model, "model")
        self.model = model
        self.optimizer = optimizer
        self.obs_normalizer = obs_normalizer
        links = (model,) if obs_normalizer is None else (model, obs_normalizer)
        self.device = place_model(gpu, *links)
        self.gamma = gamma
        self.lambd = lambd
        self.phi = phi
        self.value_func_coef = value_func_coef
        self.entropy_coef = entropy_coef
        self.update_interval = update_interval
        self.minibatch_size = minibatch_size
        self.epochs = epochs
        self.clip_eps = clip_eps
        self.clip_eps_vf = clip_eps_vf
        self.standardize_advantages = standardize_advantages
        self.batch_states = batch_states
        self.recurrent = recurrent
        self.max_recurrent_sequence_len = max_recurrent_sequence_len
        self.act_deterministically = act_deterministically
        self.max_grad_norm = max_grad_norm

        self.value_loss_record = collections.deque(maxlen=value_loss_stats_window)
        self.policy_loss_record = collections.deque(maxlen=policy_loss_stats_window)
        self.n_updates = 0
        self._init_rollouts(value_stats_window, entropy_stats_window)
        self._init_recurrent_rollouts()

    def _update(self, last_next_x: Any) -> None:
        """Train on the collected rollout; ``last_next_x`` is the model input of the observations
        after its last step."""
        x, actions, log_probs, values, advantages, value_targets = self._training_data(last_next_x)
        for index in self._on_device(self._minibatches(len(values))):
            self._update_minibatch(self._minibatch_input(x, index), actions[index],
                                   advantages[index], log_probs[index], values[index, None],
                                   value_targets[index, None])

    def _update_minibatch(self, x, actions, advantages, log_probs_old, values_old,
                          value_targets) -> None:
        distrib, values = split_policy_and_value("PPO", forward(self.model, x), len(actions))
        loss = self._lossfun(distrib.entropy, values, distrib.log_prob(actions), values_old,
                             log_probs_old, advantages, value_targets)
        self.model.cleargrads()
        loss.backward()
        if self.max_grad_norm is not None:
            GradientClipping(self.max_grad_norm)(self.optimizer)
        self.optimizer.update()
        self.n_updates += 1

    def _lossfun(self, entropy, vs_pred, log_probs, vs_pred_old, log_probs_old, advs,
                 vs_teacher) -> kusari.Variable:
        """The clipped surrogate loss plus weighted value loss minus weighted entropy.

        Parameters
        ----------
        entropy, log_probs : Variables (n,); vs_pred : Variable (n, 1)
        vs_pred_old, vs_teacher : arrays (n, 1); log_probs_old, advs : arrays (n,)
        """
        ratio = F.exp(log_probs - log_probs_old)
        loss_policy = -F.mean(F.minimum(
            ratio * advs, F.clip(ratio, 1 - self.clip_eps, 1 + self.clip_eps) * advs))
        if self.clip_eps_vf is None:
            loss_value = F.mean_squared_error(vs_pred, vs_teacher)
        else:
            clipped = F.minimum(F.maximum(vs_pred, vs_pred_old - self.clip_eps_vf),
                                vs_pred_old + self.clip_eps_vf)
            loss_value = F.mean(F.maximum(F.squared_error(vs_pred, vs_teacher),
                                          F.squared_error(clipped, vs_teacher)))
        self.value_loss_record.append(float(loss_value.array))
        self.policy_loss_record.append(float(loss_policy.array))
        return (loss_policy + self.value_func_coef * loss_value
                - self.entropy_coef * F.mean(entropy))

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [
            ("average_value", mean_or_nan(self.value_record)),
            ("average_entropy", mean_or_nan(self.entropy_record)),
            ("average_value_loss", mean_or_nan(self.value_loss_record)),
            ("average_policy_loss", mean_or_nan(self.policy_loss_record)),
            ("n_updates", self.n_updates),
            ("explained_variance", self.explained_variance),
        ]
