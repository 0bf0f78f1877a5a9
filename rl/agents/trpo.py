"""TRPO: Trust Region Policy Optimization (Schulman et al., 2015) with GAE(lambda), on PFRL's interface."""
import collections
import logging
import math
from collections.abc import Callable
from typing import Any

import kusari
import kusari.distributions as D
import kusari.functions as F
import numpy
from kusari.optimizer_hooks import GradientClipping
from kusari.rl.agents._common import (
    check_optimizer,
    mean_or_nan,
    place_model,
    require,
    require_positive_int,
)
from kusari.rl.agents._on_policy import (
    OnPolicyAgent,
    check_obs_normalizer,
    minibatch_indices,
    take_rows,
)
from kusari.rl.nn import Branched
from kusari.rl.utils import batch_states as default_batch_states
from kusari.rl.utils import conjugate_gradient


def _flat(arrays) -> Any:
    """One vector of the arrays (or Variables) ``arrays`` flattened and concatenated in order."""
    if arrays and isinstance(arrays[0], kusari.Variable):
        return F.concat([F.reshape(a, (-1,)) for a in arrays], axis=0)
    return kusari.backend.get_array_module(arrays[0]).concatenate([a.ravel() for a in arrays])


def fisher_vector_product(kl_grad: kusari.Variable, params: list, vector: Any) -> Any:
    """``H v``, the Hessian of the KL divergence whose gradient is ``kl_grad`` times ``vector``,
    by backpropagating ``kl_grad . vector`` a second time.

    At the old parameters the Hessian of ``KL(old || new)`` is the Fisher information matrix of
    the policy, averaged over the states.

    Parameters
    ----------
    kl_grad : Variable (n,)
        The flat gradient of the KL divergence with respect to ``params``, computed with
        ``enable_double_backprop=True``.
    params : list of Parameters
        Their sizes add up to n.
    vector : array (n,)

    Returns
    -------
    Array (n,) in ``vector``'s dtype.
    """
    grads = kusari.grad([F.sum(kl_grad * vector)], params)
    return _flat([g.array for g in grads])


class TRPO(OnPolicyAgent):
    """Trust Region Policy Optimization: a natural gradient step on the policy, found by conjugate
    gradient on Fisher-vector products and shortened by a line search until the mean KL divergence
    from the old policy is at most ``max_kl`` and the surrogate gain does not decrease; the value
    function is fitted separately by its own optimizer on TD(lambda) targets (GAE).

    The agent collects ``update_interval`` transitions (over all environments of ``batch_act``),
    then updates the policy once on all of them and trains the value function for ``vf_epochs``
    passes in minibatches of ``vf_batch_size``. The policy's forward computation must be twice
    differentiable (every kusari function is).

    Parameters
    ----------
    policy : kusari.Link
        Observations (batch_size, ...) -> action distribution with ``log_prob``, ``entropy`` and
        a registered KL divergence (``kusari.rl.policies`` heads).
    vf : kusari.Link
        Observations -> values of shape (batch_size, 1).
    vf_optimizer : kusari.Optimizer
        Set up on ``vf``.
    obs_normalizer : kusari.rl.nn.EmpiricalNormalization, optional
        Normalizes the observations fed to both networks; it learns from each iteration's
        observations after the advantages are computed and before the networks are updated.
    gpu : int, str or Device, optional
        PFRL's GPU id, or a device name (``'@cupy:0'``); None, a negative id or ``'@numpy'``: the host.
    gamma, lambd : float
        Discount factor and GAE's lambda, in [0, 1].
    phi : callable
        Feature extractor applied to each observation.
    entropy_coef : float
        Weight of the mean entropy in the surrogate gain, >= 0.
    update_interval : int
    max_kl : float
        Bound on the mean KL divergence ``KL(old || new)`` of a policy update, > 0.
    vf_epochs, vf_batch_size : int
    standardize_advantages : bool
    batch_states : callable
        ``batch_states(observations, device, phi)`` -> model input.
    recurrent, max_recurrent_sequence_len
        Recurrent models are not supported: ``recurrent=True`` raises NotImplementedError.
    line_search_max_backtrack : int
        Halvings of the step tried after the full one; when none is accepted the policy stays.
    conjugate_gradient_max_iter : int
    conjugate_gradient_damping : float
        Added times the identity to the Fisher matrix, >= 0.
    act_deterministically : bool
        In eval mode, take the most probable action instead of sampling.
    max_grad_norm : float or None
        Clip the value function's gradient to this global L2 norm.
    value_stats_window, entropy_stats_window, kl_stats_window, policy_step_size_stats_window : int
        Window sizes of the statistics.
    logger : logging.Logger
        Receives the line search's progress (debug) and its failures (info).

    Statistics: ``average_value`` and ``average_entropy`` over the states of recent iterations,
    ``average_kl`` (the accepted updates' KL divergences), ``average_policy_step_size`` (the
    accepted step's fraction of the full step; 0 when none was accepted) and
    ``explained_variance`` of the last iteration.
    """

    saved_attributes = ("policy", "vf", "vf_optimizer", "obs_normalizer")

    def __init__(self, policy: kusari.Link, vf: kusari.Link, vf_optimizer: kusari.Optimizer,
                 obs_normalizer: kusari.Link | None = None, gpu: int | None = None,
                 gamma: float = 0.99, lambd: float = 0.95, phi: Callable = lambda x: x,
                 entropy_coef: float = 0.01, update_interval: int = 2048, max_kl: float = 0.01,
                 vf_epochs: int = 3, vf_batch_size: int = 64, standardize_advantages: bool = True,
                 batch_states: Callable = default_batch_states, recurrent: bool = False,
                 max_recurrent_sequence_len: int | None = None,
                 line_search_max_backtrack: int = 10, conjugate_gradient_max_iter: int = 10,
                 conjugate_gradient_damping: float = 1e-2, act_deterministically: bool = False,
                 max_grad_norm: float | None = None, value_stats_window: int = 1000,
                 entropy_stats_window: int = 1000, kl_stats_window: int = 100,
                 policy_step_size_stats_window: int = 100,
                 logger: logging.Logger = logging.getLogger(__name__)):
        if recurrent:
            raise NotImplementedError("TRPO: recurrent=True is not supported (kusari.rl has no "
                                      "recurrent models yet)")
        for name, link in (("policy", policy), ("vf", vf)):
            if not isinstance(link, kusari.Link):
                raise TypeError(f"TRPO: {name} must be a kusari Link, got {type(link).__name__}")
        if policy is vf:
            raise ValueError("TRPO: policy and vf must be separate links (the policy is updated by "
                             "conjugate gradient and line search, the vf by its optimizer)")
        check_obs_normalizer("TRPO", obs_normalizer)
        require("TRPO", "gamma", gamma, 0 <= gamma <= 1, "in [0, 1]")
        require("TRPO", "lambd", lambd, 0 <= lambd <= 1, "in [0, 1]")
        require("TRPO", "entropy_coef", entropy_coef, entropy_coef >= 0, ">= 0")
        require("TRPO", "max_kl", max_kl, max_kl > 0, "> 0")
        for name, value in (("update_interval", update_interval), ("vf_epochs", vf_epochs),
                            ("vf_batch_size", vf_batch_size),
                            ("conjugate_gradient_max_iter", conjugate_gradient_max_iter)):
            require_positive_int("TRPO", name, value)
        require("TRPO", "line_search_max_backtrack", line_search_max_backtrack,
                not isinstance(line_search_max_backtrack, bool)
                and isinstance(line_search_max_backtrack, (int, numpy.integer))
                and line_search_max_backtrack >= 0, "an int >= 0")
        require("TRPO", "conjugate_gradient_damping", conjugate_gradient_damping,
                conjugate_gradient_damping >= 0, ">= 0")
        require("TRPO", "max_grad_norm", max_grad_norm, max_grad_norm is None or max_grad_norm > 0,
                "None or > 0")
        check_optimizer("TRPO", "vf_optimizer", vf_optimizer, vf, "vf")
        self.policy = policy
        self.vf = vf
        self.vf_optimizer = vf_optimizer
        self.obs_normalizer = obs_normalizer
        links = (policy, vf) if obs_normalizer is None else (policy, vf, obs_normalizer)
        self.device = place_model(gpu, *links)
        self.model = Branched(policy, vf)  # PFRL's: what act and the dataset evaluate
        self.gamma = gamma
        self.lambd = lambd
        self.phi = phi
        self.entropy_coef = entropy_coef
        self.update_interval = update_interval
        self.max_kl = max_kl
        self.vf_epochs = vf_epochs
        self.vf_batch_size = vf_batch_size
        self.standardize_advantages = standardize_advantages
        self.batch_states = batch_states
        self.recurrent = recurrent
        self.max_recurrent_sequence_len = max_recurrent_sequence_len
        self.line_search_max_backtrack = line_search_max_backtrack
        self.conjugate_gradient_max_iter = conjugate_gradient_max_iter
        self.conjugate_gradient_damping = conjugate_gradient_damping
        self.act_deterministically = act_deterministically
        self.max_grad_norm = max_grad_norm
        self.logger = logger

        self.kl_record = collections.deque(maxlen=kl_stats_window)
        self.policy_step_size_record = collections.deque(maxlen=policy_step_size_stats_window)
        self._init_rollouts(value_stats_window, entropy_stats_window)

    @property
    def _first_network(self) -> kusari.Link:
        return self.policy

    # -- learning -------------------------------------------------------------------------------

    def _update(self, last_next_x: Any) -> None:
        """Update the policy, then the value function, on the collected rollout."""
        states, actions, log_probs, _, advantages, value_targets = self._training_data(last_next_x)
        self._update_policy(states, actions, log_probs, advantages)
        self._update_vf(states, value_targets)

    def _gain(self, distrib, actions: Any, log_probs_old: Any, advantages: Any) -> kusari.Variable:
        """The surrogate gain ``mean(exp(log pi - log pi_old) * A) + entropy_coef * mean(H)``."""
        ratio = F.exp(distrib.log_prob(actions) - log_probs_old)
        return F.mean(ratio * advantages) + self.entropy_coef * F.mean(distrib.entropy)

    def _require_gradients(self, what: str, grads: list) -> None:
        """Refuse a policy parameter that ``what`` does not depend on."""
        for (name, _), g in zip(self.policy.namedparams(), grads):
            if g is None:
                raise ValueError(f"TRPO: the policy's parameter {name} gets no gradient from the "
                                 f"{what}; every policy parameter must shape the action "
                                 "distribution")

    def _update_policy(self, states: Any, actions: Any, log_probs_old: Any,
                       advantages: Any) -> None:
        """One natural gradient step within the KL trust region, on the whole rollout.

        Parameters
        ----------
        states : normalized model input (n, ...); actions : array (n,) + action shape
        log_probs_old, advantages : arrays (n,)
        """
        params = [p for _, p in self.policy.namedparams()]
        distrib = self.policy(states)
        with kusari.no_backprop_mode():
            distrib_old = self.policy(states)
        gain = self._gain(distrib, actions, log_probs_old, advantages)
        kl = F.mean(D.kl_divergence(distrib_old, distrib))
        kl_grads = kusari.grad([kl], params, enable_double_backprop=True)
        self._require_gradients("KL divergence", kl_grads)
        kl_grad = _flat(kl_grads)
        gain_grads = kusari.grad([gain], params)
        self._require_gradients("surrogate gain", gain_grads)
        damping = self.conjugate_gradient_damping

        def damped_fisher_product(vector):
            return fisher_vector_product(kl_grad, params, vector) + damping * vector

        direction = conjugate_gradient(damped_fisher_product, _flat([g.array for g in gain_grads]),
                                       max_iter=self.conjugate_gradient_max_iter)
        # KL(old || old + a d) ~ a^2 d'Fd / 2: the largest a within max_kl
        curvature = float(direction @ damped_fisher_product(direction))
        full_step = (2.0 * self.max_kl / (curvature + 1e-8)) ** 0.5 * direction
        self._line_search(params, full_step, states, actions, log_probs_old, advantages,
                          distrib_old, float(gain.array))

    def _line_search(self, params: list, full_step: Any, states: Any, actions: Any,
                     log_probs_old: Any, advantages: Any, distrib_old, gain: float) -> None:
        """Try ``full_step`` and its halvings until the gain does not decrease and the KL
        divergence stays within ``max_kl``; restore the old parameters when none qualifies."""
        old = [p.array.copy() for p in params]
        flat_old = _flat(old)
        bounds = numpy.cumsum([0] + [p.size for p in params])
        step_size = 1.0
        for i in range(self.line_search_max_backtrack + 1):
            flat_new = flat_old + step_size * full_step
            for p, start, stop in zip(params, bounds[:-1], bounds[1:]):
                p.array[...] = flat_new[start:stop].reshape(p.shape)
            with kusari.no_backprop_mode(), kusari.using_config("train", False):
                distrib = self.policy(states)
                new_gain = float(self._gain(distrib, actions, log_probs_old, advantages).array)
                new_kl = float(F.mean(D.kl_divergence(distrib_old, distrib)).array)
            self.logger.debug("TRPO line search %d: step size %g, gain improved by %g, KL %g", i,
                              step_size, new_gain - gain, new_kl)
            if math.isfinite(new_gain) and math.isfinite(new_kl) and new_gain >= gain \
                    and new_kl <= self.max_kl:
                self.kl_record.append(new_kl)
                self.policy_step_size_record.append(step_size)
                return
            step_size *= 0.5
        self.logger.info("TRPO: the line search found no step that keeps the KL divergence within "
                         "max_kl and does not decrease the gain; the policy was not updated")
        self.policy_step_size_record.append(0.0)
        for p, array in zip(params, old):
            p.array[...] = array

    def _update_vf(self, states: Any, value_targets: Any) -> None:
        """``vf_epochs`` passes of the value function's optimizer over minibatches of the rollout
        on the squared error to ``value_targets`` (n,)."""
        for index in self._on_device(minibatch_indices(len(value_targets), self.vf_batch_size,
                                                       self.vf_epochs)):
            # the values' shape (n, 1) was checked when the dataset was made
            loss = F.mean_squared_error(self.vf(take_rows(states, index)), value_targets[index, None])
            self.vf.cleargrads()
            loss.backward()
            if self.max_grad_norm is not None:
                GradientClipping(self.max_grad_norm)(self.vf_optimizer)
            self.vf_optimizer.update()

    def get_statistics(self) -> list[tuple[str, Any]]:
        return [
            ("average_value", mean_or_nan(self.value_record)),
            ("average_entropy", mean_or_nan(self.entropy_record)),
            ("average_kl", mean_or_nan(self.kl_record)),
            ("average_policy_step_size", mean_or_nan(self.policy_step_size_record)),
            ("explained_variance", self.explained_variance),
        ]
