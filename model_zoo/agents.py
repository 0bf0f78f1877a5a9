"""RL agents of the model zoo: the agent builders, the action-scaling adapter, and saving/loading as one file.

:func:`make_agent` builds an agent of a kind (``'dqn'``, ``'ppo'``, ``'a2c'``, ``'a3c'``, ``'td3'``,
``'sac'``, ``'ddpg'``) for a gymnasium environment id; the reproductions under ``reproductions/rl/`` train what
it builds, :func:`save_agent` writes the trained agent as one ``.npz``, and :func:`load_agent` (a
zoo entry's ``loader``, with ``params={'kind': ..., 'env_id': ..., <architecture>}``) builds the same
agent again and loads that file. Networks and default hyperparameters are those of each
algorithm's Stable-Baselines3 ``MlpPolicy``, which the rl-baselines3-zoo recipes assume, rebuilt
on kusari.rl's (PFRL's) agents with kusari's (PFRL's) initializers.

Continuous-control agents (TD3, SAC, DDPG) learn in ``[-1, 1]`` as Stable-Baselines3's do, and
come wrapped in :class:`ScaledActionAgent`, which maps their actions onto the environment's
bounds: a zoo agent acts on the raw ``gymnasium.make(env_id)`` environment.

This module needs the ``[rl]`` extra (gymnasium); ``import kusari.model_zoo`` does not import it.
"""
import contextlib
import inspect
import os
from collections.abc import Sequence
from typing import Any

import numpy

import kusari
import kusari.functions as F
import kusari.links as L
from kusari import optimizers
# kusari.rl first: without gymnasium, its ImportError names the [rl] extra to install
from kusari.rl import explorers, initializers, nn, policies, q_functions, replay_buffers
import gymnasium
from kusari.rl.agent import Agent, BatchAgent, load_weights, save_weights
from kusari.rl.agents import A2C, A3C, DDPG, DQN, PPO, TD3, SoftActorCritic
from kusari.rl.optimizers import SharedRMSpropEpsInsideSqrt


class ScaledActionAgent(BatchAgent):
    """An agent whose actions lie in ``[-1, 1]``, acting in an environment's box ``[low, high]``.

    ``batch_act`` maps the inner agent's action ``a`` to ``low + (a + 1) * (high - low) / 2``;
    everything else (``batch_observe``, ``eval_mode``, ``save``, ``load``, ``get_statistics``) is
    the inner agent's, which keeps storing and learning from its own ``[-1, 1]`` actions.

    Parameters
    ----------
    agent : BatchAgent
        Acts with float arrays of shape (action_size,) in ``[-1, 1]``.
    low, high : array-like of shape (action_size,)
        The environment's finite action bounds (``action_space.low`` / ``.high``), ``low < high``.
    """

    def __init__(self, agent: BatchAgent, low: Any, high: Any):
        low = numpy.asarray(low, dtype=numpy.float32)
        high = numpy.asarray(high, dtype=numpy.float32)
        if low.ndim != 1 or low.shape != high.shape:
            raise ValueError(f"ScaledActionAgent: low and high must be vectors of one shape, got "
                             f"low.shape={low.shape}, high.shape={high.shape}")
        if not (numpy.isfinite(low).all() and numpy.isfinite(high).all() and (low < high).all()):
            raise ValueError(f"ScaledActionAgent: the bounds must be finite with low < high, got "
                             f"low={low}, high={high}")
        self.agent = agent
        self.low = low
        self.high = high

    @property
    def training(self) -> bool:
        """The inner agent's ``training``."""
        return self.agent.training

    def eval_mode(self) -> contextlib.AbstractContextManager:
        """The inner agent's :meth:`eval_mode`."""
        return self.agent.eval_mode()

    def scale(self, action: Any) -> numpy.ndarray:
        """Map an action in ``[-1, 1]`` (shape (action_size,)) onto ``[low, high]`` (float32)."""
        action = numpy.asarray(action, dtype=numpy.float32)
        if action.shape != self.low.shape:
            raise ValueError(f"ScaledActionAgent: the inner agent's action has shape {action.shape}, "
                             f"the bounds {self.low.shape}")
        return self.low + (action + 1) * ((self.high - self.low) / 2)

    def batch_act(self, batch_obs: Sequence[Any]) -> list[numpy.ndarray]:
        """The inner agent's actions for ``batch_obs``, each scaled onto ``[low, high]``."""
        return [self.scale(a) for a in self.agent.batch_act(batch_obs)]

    def batch_observe(self, batch_obs: Sequence[Any], batch_reward: Sequence[float],
                      batch_done: Sequence[bool], batch_reset: Sequence[bool]) -> None:
        self.agent.batch_observe(batch_obs, batch_reward, batch_done, batch_reset)

    def save(self, dirname: str) -> None:
        self.agent.save(dirname)

    def load(self, dirname: str) -> None:
        self.agent.load(dirname)

    def get_statistics(self) -> list[tuple[str, Any]]:
        return self.agent.get_statistics()


def _uniform_action(action_size: int):
    """Random actions in ``[-1, 1]`` drawn from NumPy's global generator (seeded by the caller)."""
    return lambda: numpy.random.uniform(-1, 1, action_size).astype(numpy.float32)


def _actor_critic(obs_size: int, n_actions: int, hidden_sizes: Sequence[int]) -> kusari.Link:
    # SB3's MlpPolicy for PPO/A2C: separate tanh networks for the policy and the value; its small
    # last-layer gain (0.01) on the policy is kept as PFRL's last_wscale
    policy = kusari.Sequential(nn.MLP(obs_size, n_actions, hidden_sizes, nonlinearity=F.tanh,
                                      last_wscale=0.01),
                               policies.SoftmaxCategoricalHead())
    return nn.Branched(policy, nn.MLP(obs_size, 1, hidden_sizes, nonlinearity=F.tanh))


def _critic(obs_size: int, action_size: int, hidden_sizes: Sequence[int]) -> kusari.Link:
    return kusari.Sequential(nn.ConcatObsAndAction(),
                             nn.MLP(obs_size + action_size, 1, hidden_sizes))


def _deterministic_policy(obs_size: int, action_size: int, hidden_sizes: Sequence[int]) -> kusari.Link:
    return kusari.Sequential(nn.MLP(obs_size, action_size, hidden_sizes), nn.Lambda(F.tanh),
                             policies.DeterministicHead())


def _adam(link: kusari.Link, lr: float, eps: float = 1e-8) -> kusari.Optimizer:
    return optimizers.Adam(alpha=lr, eps=eps).setup(link)


def _dqn(obs_size: int, n_actions: int, hidden_sizes: Sequence[int] = (64, 64), lr: float = 1e-4,
         gamma: float = 0.99, buffer_size: int = 1_000_000, replay_start_size: int = 100,
         minibatch_size: int = 32, update_interval: int = 4, n_times_update: int = 1,
         target_update_interval: int = 10_000, start_epsilon: float = 1.0,
         end_epsilon: float = 0.05, decay_steps: int = 10_000, max_grad_norm: float = 10.0,
         initialization: str = "chainer") -> DQN:
    mlp = nn.MLP(obs_size, n_actions, hidden_sizes)
    if initialization == "pytorch":   # SB3's Q-network starts from PyTorch's default
        for layer in mlp.links(skipself=True):
            if isinstance(layer, L.Linear):
                initializers.init_pytorch_default(layer)
    elif initialization != "chainer":
        raise ValueError(f"make_agent: initialization must be 'chainer' or 'pytorch', got {initialization!r}")
    q_function = kusari.Sequential(mlp, q_functions.DiscreteActionValueHead())
    explorer = explorers.LinearDecayEpsilonGreedy(
        start_epsilon, end_epsilon, decay_steps, lambda: int(numpy.random.randint(n_actions)))
    # SB3's DQN: Huber loss averaged over the minibatch, hard target updates
    return DQN(q_function, _adam(q_function, lr), replay_buffers.ReplayBuffer(buffer_size), gamma,
               explorer, replay_start_size=replay_start_size, minibatch_size=minibatch_size,
               update_interval=update_interval, target_update_interval=target_update_interval,
               n_times_update=n_times_update, max_grad_norm=max_grad_norm)


def _ppo(obs_size: int, n_actions: int, hidden_sizes: Sequence[int] = (64, 64), lr: float = 3e-4,
         gamma: float = 0.99, lambd: float = 0.95, entropy_coef: float = 0.0,
         value_func_coef: float = 0.5, update_interval: int = 2048, minibatch_size: int = 64,
         epochs: int = 10, clip_eps: float = 0.2, max_grad_norm: float = 0.5) -> PPO:
    model = _actor_critic(obs_size, n_actions, hidden_sizes)
    return PPO(model, _adam(model, lr, eps=1e-5), gamma=gamma, lambd=lambd,
               value_func_coef=value_func_coef, entropy_coef=entropy_coef,
               update_interval=update_interval, minibatch_size=minibatch_size, epochs=epochs,
               clip_eps=clip_eps, standardize_advantages=True, act_deterministically=True,
               max_grad_norm=max_grad_norm)


def _a2c(obs_size: int, n_actions: int, hidden_sizes: Sequence[int] = (64, 64), lr: float = 7e-4,
         gamma: float = 0.99, num_processes: int = 1, update_steps: int = 5,
         entropy_coeff: float = 0.0, v_loss_coef: float = 0.5, max_grad_norm: float = 0.5,
         rmsprop_alpha: float = 0.99, rmsprop_eps: float = 1e-5) -> A2C:
    model = _actor_critic(obs_size, n_actions, hidden_sizes)
    optimizer = optimizers.RMSprop(lr=lr, alpha=rmsprop_alpha, eps=rmsprop_eps).setup(model)
    return A2C(model, optimizer, gamma, num_processes, update_steps=update_steps,
               v_loss_coef=v_loss_coef, entropy_coeff=entropy_coeff, act_deterministically=True,
               max_grad_norm=max_grad_norm)


def _a3c(obs_size: int, n_actions: int, hidden_sizes: Sequence[int] = (64, 64), lr: float = 7e-4,
         gamma: float = 0.99, t_max: int = 5, beta: float = 0.0, v_loss_coef: float = 1.0,
         max_grad_norm: float = 0.5, rmsprop_alpha: float = 0.99, rmsprop_eps: float = 1e-5) -> A3C:
    # SB3's A2C networks and optimizer settings; the optimizer is A3C's shared RMSprop, whose state
    # exists before the processes fork (its eps sits inside the square root). The loss is averaged
    # over each rollout, and v_loss_coef 1 on A3C's halved squared error is SB3's vf_coef 0.5.
    model = _actor_critic(obs_size, n_actions, hidden_sizes)
    optimizer = SharedRMSpropEpsInsideSqrt(lr=lr, alpha=rmsprop_alpha, eps=rmsprop_eps).setup(model)
    return A3C(model, optimizer, t_max, gamma, beta=beta, v_loss_coef=v_loss_coef,
               normalize_grad_by_t_max=True, act_deterministically=True, max_grad_norm=max_grad_norm)


def _td3(obs_size: int, action_size: int, hidden_sizes: Sequence[int] = (400, 300),
         lr: float = 1e-3, gamma: float = 0.99, buffer_size: int = 1_000_000,
         replay_start_size: int = 256, minibatch_size: int = 256, soft_update_tau: float = 0.005,
         noise_std: float = 0.1, policy_update_delay: int = 2) -> TD3:
    policy = _deterministic_policy(obs_size, action_size, hidden_sizes)
    q1, q2 = (_critic(obs_size, action_size, hidden_sizes) for _ in range(2))
    return TD3(policy, q1, q2, _adam(policy, lr), _adam(q1, lr), _adam(q2, lr),
               replay_buffers.ReplayBuffer(buffer_size), gamma,
               explorers.AdditiveGaussian(noise_std, low=-1.0, high=1.0),
               replay_start_size=replay_start_size, minibatch_size=minibatch_size,
               soft_update_tau=soft_update_tau, policy_update_delay=policy_update_delay,
               burnin_action_func=_uniform_action(action_size))


def _ddpg(obs_size: int, action_size: int, hidden_sizes: Sequence[int] = (400, 300),
          lr: float = 1e-3, gamma: float = 0.99, buffer_size: int = 1_000_000,
          replay_start_size: int = 256, minibatch_size: int = 256, soft_update_tau: float = 0.005,
          noise_std: float = 0.1) -> DDPG:
    policy = _deterministic_policy(obs_size, action_size, hidden_sizes)
    q_func = _critic(obs_size, action_size, hidden_sizes)
    # SB3's DDPG moves its targets by Polyak averaging after every update
    return DDPG(policy, q_func, _adam(policy, lr), _adam(q_func, lr),
                replay_buffers.ReplayBuffer(buffer_size), gamma,
                explorers.AdditiveGaussian(noise_std, low=-1.0, high=1.0),
                replay_start_size=replay_start_size, minibatch_size=minibatch_size,
                target_update_method="soft", target_update_interval=1,
                soft_update_tau=soft_update_tau, burnin_action_func=_uniform_action(action_size))


def _sac(obs_size: int, action_size: int, hidden_sizes: Sequence[int] = (256, 256),
         lr: float = 3e-4, gamma: float = 0.99, buffer_size: int = 1_000_000,
         replay_start_size: int = 256, minibatch_size: int = 256, soft_update_tau: float = 0.005,
         initial_temperature: float = 1.0) -> SoftActorCritic:
    policy = kusari.Sequential(nn.MLP(obs_size, 2 * action_size, hidden_sizes),
                               policies.SquashedDiagonalGaussianHead())
    q1, q2 = (_critic(obs_size, action_size, hidden_sizes) for _ in range(2))
    # SB3's ent_coef='auto': the temperature learns towards an entropy of -action_size at the
    # critics' learning rate
    return SoftActorCritic(policy, q1, q2, _adam(policy, lr), _adam(q1, lr), _adam(q2, lr),
                           replay_buffers.ReplayBuffer(buffer_size), gamma,
                           replay_start_size=replay_start_size, minibatch_size=minibatch_size,
                           soft_update_tau=soft_update_tau,
                           burnin_action_func=_uniform_action(action_size),
                           initial_temperature=initial_temperature,
                           entropy_target=-float(action_size), temperature_optimizer_lr=lr)


_DISCRETE = {"dqn": _dqn, "ppo": _ppo, "a2c": _a2c, "a3c": _a3c}
_CONTINUOUS = {"td3": _td3, "sac": _sac, "ddpg": _ddpg}
KINDS = tuple(sorted({**_DISCRETE, **_CONTINUOUS}))


def hyperparameters(kind: str) -> dict[str, Any]:
    """The keyword hyperparameters :func:`make_agent` takes for ``kind``, with their defaults."""
    builder = {**_DISCRETE, **_CONTINUOUS}.get(kind)
    if builder is None:
        raise ValueError(f"make_agent: unknown agent kind {kind!r}; kinds: {', '.join(KINDS)}")
    return {name: p.default for name, p in list(inspect.signature(builder).parameters.items())[2:]}


def make_agent(kind: str, env_id: str, **kwargs: Any) -> Agent:
    """A new, untrained agent of ``kind`` for the gymnasium environment ``env_id``.

    The networks are drawn from NumPy's global generator, and so are the random actions of
    exploration and burn-in: seed it first (``kusari.rl.utils.set_random_seed``).

    Parameters
    ----------
    kind : str
        ``'dqn'``, ``'ppo'``, ``'a2c'`` or ``'a3c'`` (a Discrete action space), ``'td3'``, ``'sac'`` or
        ``'ddpg'`` (a finite Box action space of shape (action_size,)).
    env_id : str
        A registered gymnasium id with a float observation vector, e.g. ``'CartPole-v1'``.
    **kwargs
        Hyperparameters with kusari.rl's (PFRL's) names; :func:`hyperparameters` lists them and
        their defaults (``hidden_sizes``, the architecture, among them).

    Returns
    -------
    Agent
        The agent (A3C's an AsyncAgent, the others BatchAgents); for a Box action space a
        :class:`ScaledActionAgent` around it.
    """
    unknown = sorted(set(kwargs) - set(hyperparameters(kind)))
    if unknown:
        raise TypeError(f"make_agent: {kind} takes no hyperparameter {', '.join(map(repr, unknown))}; "
                        f"it takes {', '.join(hyperparameters(kind))}")
    with gymnasium.make(env_id) as env:
        obs_space, action_space = env.observation_space, env.action_space
    if not (isinstance(obs_space, gymnasium.spaces.Box) and len(obs_space.shape) == 1):
        raise ValueError(f"make_agent: {env_id} has observations {obs_space}; zoo agents take "
                         "float vectors (a Box of one dimension)")
    obs_size = obs_space.shape[0]
    if kind in _DISCRETE:
        if not isinstance(action_space, gymnasium.spaces.Discrete):
            raise ValueError(f"make_agent: {kind} needs a Discrete action space, {env_id} has "
                             f"{action_space}")
        return _DISCRETE[kind](obs_size, int(action_space.n), **kwargs)
    if not (isinstance(action_space, gymnasium.spaces.Box) and len(action_space.shape) == 1
            and action_space.is_bounded()):
        raise ValueError(f"make_agent: {kind} needs a bounded Box action space of one dimension, "
                         f"{env_id} has {action_space}")
    agent = _CONTINUOUS[kind](obs_size, action_space.shape[0], **kwargs)
    return ScaledActionAgent(agent, action_space.low, action_space.high)


def _saved_agent(agent: Agent) -> Agent:
    return agent.agent if isinstance(agent, ScaledActionAgent) else agent


def save_agent(agent: Agent, path: str) -> None:
    """Write ``agent``'s weights (:func:`kusari.rl.agent.save_weights`: networks, target networks
    and counters, no optimizer state, no replay buffer) as the one ``.npz`` ``path``.

    Parameters
    ----------
    agent : Agent
        An agent from :func:`make_agent`, trained or not.
    path : str
        The file to write (its folder must exist).
    """
    save_weights(_saved_agent(agent), path)


def load_agent(path: str, kind: str, env_id: str, **kwargs: Any) -> Agent:
    """The agent that :func:`save_agent` wrote to ``path``, rebuilt by :func:`make_agent`.

    The zoo's loader: an entry's ``params`` are ``kind``, ``env_id`` and the architecture's
    hyperparameters (``hidden_sizes``) it was trained with.

    Parameters
    ----------
    path : str
        A ``.npz`` written by :func:`save_agent`.
    kind, env_id, **kwargs
        As in :func:`make_agent`.

    Returns
    -------
    Agent
        The trained agent, ready to ``act`` (call it inside ``eval_mode()`` to act greedily) and to
        go on learning (its optimizers start afresh).
    """
    if not os.path.isfile(path):
        raise FileNotFoundError(f"load_agent: no agent file {path!r}")
    agent = make_agent(kind, env_id, **kwargs)
    load_weights(_saved_agent(agent), path)
    return agent
