"""Write the PFRL 0.4.0 parity fixtures used by tests/rl/test_pfrl_parity.py.

Run ``python tools/make_pfrl_fixture.py [OUT_DIR] [--python PEER_PYTHON] [--cases NAME ...]``. The
peer is PFRL 0.4.0 on
torch (CPU) in the benchmarks' ``rl-peers`` virtual environment (``bench.environments.ensure``: built
once under ``$KUSARI_BENCH_CACHE``, default ``~/.cache/kusari-bench``), or the interpreter given with
``--python``. A script run in it builds tiny seeded networks (observations of size 3, one hidden layer
of 8 units), feeds PFRL's own agents fixed data and writes into ``tests/rl/fixtures/pfrl/`` (or
OUT_DIR), for every case, the initial parameters (torch names with ``/`` for ``.``, under ``init/`` and
``init_target/``), the data fed in and PFRL's results after ONE update:

- ``nstep.npz``: a ``ReplayBuffer(num_steps=3)`` fed two interleaved environments' episodes (a
  terminal state, truncations by ``stop_current_episode``, an unfinished episode): the ``events``
  replayed, and for its stored experiences in order their first event, length and
  ``batch_experiences(gamma=0.9)`` (``reward``, ``discount``, ``is_state_terminal``, ``state``,
  ``next_state``);
- ``dqn.npz``, ``double_dqn.npz``: ``DQN`` / ``DoubleDQN`` (Huber loss, ``batch_accumulator='mean'``,
  ``max_grad_norm`` below the gradient's norm, SGD lr 0.1) with a target network that differs from
  the model, after ``agent.update(experiences)`` on 6 experiences of 1 to 3 steps; ``average_q``,
  ``average_loss`` and the unclipped ``grad_norm``;
- ``dqn_adam.npz``: the same DQN step with ``torch.optim.Adam(lr=1e-2, eps=1e-8)`` and its
  ``adam_lr``, ``adam_beta2``, ``adam_eps`` (torch adds eps to the bias-corrected ``sqrt(v_hat)``,
  Chainer's Adam to ``sqrt(v)``);
- ``ppo.npz``: ``PPO`` (GAE lambda 0.8, standardized advantages, one epoch, one minibatch of the whole
  rollout, SGD lr 0.1) driven through ``batch_act``/``batch_observe`` on a fixed rollout of two
  environments over 6 steps with a truncation and terminations, each sampled action replaced by the
  fixed one; the advantages ``adv`` and value targets ``v_teacher`` (time, env), the statistics and
  the parameters after the update;
- ``ddpg.npz``: ``DDPG`` after ``agent.update(experiences)`` on 6 one-step experiences (target networks
  differing from the online ones, SGD lr 0.1);
- ``td3.npz``: ``TD3`` with ``policy_update_delay=1``, ``soft_update_tau=0.1``, ``max_grad_norm=0.5``
  and the deterministic smoothing ``clip(a + smoothing_shift, -1, 1)``: all six networks after one
  ``agent.update(experiences)``.

and PFRL's results after MANY updates, on Adam (lr 3e-3, eps 1e-8), gamma 0.99, Polyak rate 0.05,
from a pool of 64 one-step transitions (``state``, ``action``, ``reward``, ``next_state``,
``is_state_terminal``; the reward depends on state and action), each update on the minibatch
``pool[rows[k]]`` (``rows``: (100, 16)), with ``init/<net>/...`` the initial parameters and
``after/<net>/...`` every network's parameters (targets included) after each update (a first axis of
100):

- ``sac_updates.npz``: ``SoftActorCritic`` (policy ``MLP(3, 2, [8])`` into a tanh-squashed Gaussian,
  critics ``MLP(4, 1, [8])`` on ``ConcatObsAndAction``, temperature from 0.5 tuned towards an entropy
  of -1); ``noise`` (100, 2, 16, 1): the standard normal draws of each update's next actions and of
  its policy loss's actions; per update ``q_func1_loss``, ``q_func2_loss``, the ``temperature``
  after it and ``log_prob`` (16,), the policy draws' log-densities;
- ``td3_updates.npz``: ``TD3`` (``policy_update_delay=2``) with PFRL's default target policy smoothing
  on the draws ``noise`` (100, 16, 1); per update ``q_func1_loss``, ``q_func2_loss``,
  ``policy_loss`` (the latest policy update's, NaN before the first) and ``policy_n_updates``;
- ``ddpg_updates.npz``: ``DDPG`` with soft target updates after every update (as PFRL's observe does
  with ``target_update_interval=1``); per update ``critic_loss`` and ``actor_loss``.

and, from a generator of their own (seed 51):

- ``categorical_dqn.npz``, ``categorical_double_dqn.npz``: ``CategoricalDQN`` /
  ``CategoricalDoubleDQN`` on ``DistributionalFCStateQFunctionWithDiscreteAction(3, 2, 11 atoms in
  [-3, 3], [8])`` with a differing target network, after ``agent.update(experiences)`` on 6
  experiences of 1 to 3 steps (SGD lr 0.1, ``max_grad_norm`` below the gradient's norm); the
  projected target distributions ``target_dist`` (6, 11), ``average_q``, ``average_loss``,
  ``grad_norm``;

and (seed 52) ``iqn.npz``: ``IQN`` (N=5, N'=4, K=3) on ``ImplicitQuantileQFunction`` (psi ``Linear(3, 8)``
+ ReLU, phi ``CosineBasisLinear(6, 8)`` + ReLU, f ``Linear(8, 2)``) with a differing target network,
after three ``agent.update(experiences)`` on the same 6 experiences (SGD lr 0.1); the levels it drew
(``taus`` (3, 6, 5), ``taus_tilde`` (3, 6, 3), ``taus_prime`` (3, 6, 4), in the order drawn),
``average_q`` and ``average_loss``.

and (seed 53, case ``dqn_variants``) ``al.npz``, ``pal.npz``, ``double_pal.npz`` (alpha 0.7),
``dpp.npz``, ``dppl.npz`` (eta 2) and ``dpp_greedy.npz``: each agent on the DQN cases' Q-function
with a differing target network, after three ``agent.update(experiences)`` on the recorded
minibatches ``experiences[6k:6k+6]`` (18 experiences of 1 to 3 steps; SGD lr 0.1, Huber loss); the
parameters after each update (``after/...`` with a first axis of 3), ``average_q`` and
``average_loss``.

and (seed 54, case ``rainbow``) ``rainbow.npz``: three ``CategoricalDoubleDQN`` updates with
importance weights of a ``DistributionalDuelingDQN`` made noisy by ``to_factorized_noisy``, as PFRL's
Rainbow example assembles it, with every noise draw PFRL made (``rainbow_case`` lists its contents).

and (seeds 55 and 56, case ``trpo``) ``trpo.npz`` and ``trpo_gaussian.npz``: ``TRPO`` with a softmax
and a Gaussian policy over three iterations of a recorded rollout (``trpo_run`` lists the contents).

and (seed 57, case ``recurrent_dqn``) ``recurrent_dqn.npz``: ``DQN(recurrent=True)`` with an LSTM,
driven on two environments, its stored episodes with their recurrent states, and three updates on
them (``recurrent_dqn_case`` lists the contents); (seeds 58 and 59, case ``recurrent_ppo``)
``recurrent_ppo.npz`` and ``recurrent_ppo_cut.npz``: ``PPO(recurrent=True)`` with an LSTM on
``ppo.npz``'s kind of rollout, whole and cut into sequences of 2 (``recurrent_ppo_run``); (seed 60,
case ``ppo_obs_normalizer``) ``ppo_obs_normalizer.npz``: ``PPO`` with an ``EmpiricalNormalization``
over two iterations (``ppo_obs_normalizer_case`` lists the contents).

SGD stands in for Adam in the one-update cases: Adam's first step is ``lr * sign(g)`` up to eps, which
would hide the loss scale and gradient clipping that these fixtures are there to check.
"""
import argparse
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "tests" / "rl" / "fixtures" / "pfrl"

PEER_SCRIPT = r'''
import copy
import random
import sys
from importlib.metadata import version

import numpy as np
import torch
from torch import nn

import pfrl
from pfrl import agents, explorers, policies, q_functions, replay_buffers
from pfrl.nn import MLP, Branched, ConcatObsAndAction
from pfrl.replay_buffer import batch_experiences

assert version("pfrl") == "0.4.0", version("pfrl")
out = sys.argv[1]
random.seed(0)  # PFRL's PPO shuffles its minibatches with Python's random
torch.manual_seed(0)
torch.set_num_threads(1)
rng = np.random.RandomState(0)
OBS, HIDDEN, GAMMA, BATCH = 3, 8, 0.9, 6


def randomize_biases(module):
    # PFRL starts biases at zero; nonzero ones check that the test loads them too
    with torch.no_grad():
        for name, p in module.named_parameters():
            if name.endswith("bias"):
                p.copy_(torch.from_numpy(rng.uniform(-0.1, 0.1, p.shape).astype(np.float32)))
    return module


def export(prefix, module):
    return {f"{prefix}/{name.replace('.', '/')}": p.detach().numpy().copy()
            for name, p in module.named_parameters()}


def perturbed_state(module):
    """A state dict near ``module``'s, for target networks that differ from the online ones."""
    return {k: v + torch.from_numpy(rng.normal(0, 0.2, v.shape).astype(np.float32))
            for k, v in module.state_dict().items()}


def random_experiences(lengths, terminal, action_fn):
    """Flat arrays of n-step experiences (consecutive transitions) of the given lengths."""
    arrays = {k: [] for k in ("state", "action", "reward", "next_state", "is_state_terminal")}
    for n, term in zip(lengths, terminal):
        obs = rng.uniform(-1, 1, (n + 1, OBS)).astype(np.float32)
        arrays["state"].extend(obs[:-1])
        arrays["next_state"].extend(obs[1:])
        arrays["action"].extend(action_fn() for _ in range(n))
        arrays["reward"].extend(rng.uniform(-3, 3, n).astype(np.float32))
        arrays["is_state_terminal"].extend([False] * (n - 1) + [term])
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    arrays["exp_len"] = np.asarray(lengths, np.int64)
    return arrays


def build_experiences(arrays, discrete):
    experiences, k = [], 0
    for n in arrays["exp_len"]:
        experiences.append([dict(
            state=arrays["state"][k + i],
            action=int(arrays["action"][k + i]) if discrete else arrays["action"][k + i],
            reward=float(arrays["reward"][k + i]), next_state=arrays["next_state"][k + i],
            next_action=None, is_state_terminal=bool(arrays["is_state_terminal"][k + i]))
            for i in range(n)])
        k += n
    return experiences


def sgd(module):
    return torch.optim.SGD(module.parameters(), lr=0.1)


def grad_l2_norm(module, loss):
    module.zero_grad()
    loss.backward()
    norm = float(np.sqrt(sum(float((p.grad ** 2).sum()) for p in module.parameters())))
    module.zero_grad()
    return norm


def nstep_case():
    buffer = replay_buffers.ReplayBuffer(num_steps=3)
    # (env_id, kind): kind 0 appends a non-terminal transition, 1 a terminal one, 2 stops the episode
    events = [(0, 0), (0, 0), (1, 0), (0, 0), (1, 0), (0, 0), (1, 2), (0, 1),
              (1, 0), (0, 0), (1, 0), (0, 0), (1, 0), (1, 0), (0, 2), (1, 0), (0, 0)]
    n = len(events)
    state = rng.uniform(-1, 1, (n, OBS)).astype(np.float32)
    next_state = rng.uniform(-1, 1, (n, OBS)).astype(np.float32)
    reward = rng.uniform(-3, 3, n).astype(np.float32)
    action = rng.randint(0, 2, n)
    for e, (env_id, kind) in enumerate(events):
        if kind == 2:
            buffer.stop_current_episode(env_id=env_id)
            continue
        transition = dict(state=state[e], action=int(action[e]), reward=float(reward[e]),
                          next_state=next_state[e], next_action=None, is_state_terminal=kind == 1,
                          env_id=env_id, event=e)  # an extra key, kept in the transition
        buffer.append(**transition)
    experiences = [buffer.memory[i] for i in range(len(buffer))]
    batch = batch_experiences(experiences, torch.device("cpu"), lambda x: x, GAMMA)
    np.savez(out + "/nstep.npz", gamma=GAMMA, num_steps=3,
             event_env=np.asarray([e for e, _ in events]),
             event_kind=np.asarray([k for _, k in events]), state=state, next_state=next_state,
             reward=reward, action=action,
             exp_first=np.asarray([exp[0]["event"] for exp in experiences]),
             exp_len=np.asarray([len(exp) for exp in experiences]),
             **{"batch/" + k: v.numpy() for k, v in batch.items()})


def dqn_cases():
    q = randomize_biases(q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1))
    init, target = copy.deepcopy(q.state_dict()), perturbed_state(q)
    arrays = random_experiences([1, 2, 3, 3, 2, 1], [False, True, False, True, False, False],
                                lambda: rng.randint(0, 2))
    max_grad_norm = 0.5

    def run(cls, make_optimizer, name, **extra):
        model = q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1)
        model.load_state_dict(init)
        agent = cls(model, make_optimizer(model), replay_buffers.ReplayBuffer(100), GAMMA,
                    explorers.Greedy(), replay_start_size=BATCH, minibatch_size=BATCH,
                    target_update_interval=100, clip_delta=True, batch_accumulator="mean",
                    max_grad_norm=max_grad_norm)
        agent.target_model.load_state_dict(target)
        experiences = build_experiences(arrays, discrete=True)
        exp_batch = batch_experiences(experiences, agent.device, agent.phi, agent.gamma)
        # the norm from a throwaway copy, so that the agent's statistics see one update only
        probe = copy.deepcopy(agent)
        norm = grad_l2_norm(probe.model, probe._compute_loss(exp_batch))
        assert norm > max_grad_norm, (name, norm)
        fixture = dict(export("init", q), **export("init_target", agent.target_model), **arrays)
        agent.update(experiences)
        stats = dict(agent.get_statistics())
        fixture.update(export("after", agent.model), gamma=GAMMA, max_grad_norm=max_grad_norm,
                       grad_norm=norm, average_q=stats["average_q"],
                       average_loss=stats["average_loss"], **extra)
        np.savez(out + f"/{name}.npz", **fixture)

    run(agents.DQN, sgd, "dqn")
    run(agents.DoubleDQN, sgd, "double_dqn")
    adam = dict(adam_lr=1e-2, adam_beta2=0.999, adam_eps=1e-8)
    run(agents.DQN, lambda m: torch.optim.Adam(m.parameters(), lr=adam["adam_lr"],
                                               betas=(0.9, adam["adam_beta2"]), eps=adam["adam_eps"]),
        "dqn_adam", **adam)


def uniform_observations(*shape):
    """Observations of ``shape`` + (OBS,) drawn from ``U(-1, 1)`` by ``rng``, float32."""
    return rng.uniform(-1, 1, shape + (OBS,)).astype(np.float32)


def episode_observations(terminated, truncated, draw=uniform_observations):
    """``(obs, next_obs)`` (T, n_envs, OBS) of a rollout whose episodes end where ``terminated`` or
    ``truncated`` (T, n_envs): ``next_obs`` drawn by ``draw(*shape)``; ``obs[t]`` the step before's
    next observation, or a fresh draw where an episode ended."""
    steps, n_envs = terminated.shape
    next_obs = draw(steps, n_envs)
    obs = np.empty((steps, n_envs, OBS), np.float32)
    obs[0] = draw(n_envs)
    for t in range(1, steps):
        ended = terminated[t - 1] | truncated[t - 1]
        obs[t] = np.where(ended[:, None], draw(n_envs), next_obs[t - 1])
    return obs, next_obs


def drive_ppo(agent, model, method, flatten, n_envs, steps, **extra):
    """Drive PFRL's ``agent`` with ``batch_act``/``batch_observe`` through a rollout drawn from
    ``rng`` (``n_envs`` environments, ``steps`` steps; env 0 truncated after step 1 and terminated
    after step 4, env 1 terminated after step 2; each sampled action replaced by a fixed one),
    catching the transitions it passes to ``agent.<method>`` (``flatten``: that argument -> the
    transitions). Returns the fixture's entries: ``model``'s parameters under ``after/``, the
    rollout, the caught ``adv`` and ``v_teacher`` (steps, n_envs), ``extra`` and the statistics."""
    terminated = np.zeros((steps, n_envs), bool)
    truncated = np.zeros((steps, n_envs), bool)
    truncated[1, 0] = terminated[4, 0] = terminated[2, 1] = True
    obs, next_obs = episode_observations(terminated, truncated)
    actions = rng.randint(0, 2, (steps, n_envs))
    rewards = rng.uniform(-1, 1, (steps, n_envs)).astype(np.float32)

    dataset = []  # PFRL's transitions with their "adv" and "v_teacher", caught on their way in
    update = getattr(agent, method)
    setattr(agent, method, lambda d: (dataset.extend(flatten(d)), update(d)))
    for t in range(steps):
        agent.batch_act(obs[t])
        agent.batch_last_action = list(actions[t])  # the fixed action instead of the sampled one
        agent.batch_observe(next_obs[t], rewards[t], terminated[t], truncated[t])
    assert len(dataset) == n_envs * steps
    adv = np.full((steps, n_envs), np.nan, np.float32)
    v_teacher = np.full((steps, n_envs), np.nan, np.float32)
    for transition in dataset:
        t, i = map(int, np.argwhere((obs == transition["state"]).all(axis=2))[0])
        adv[t, i], v_teacher[t, i] = transition["adv"], transition["v_teacher"]
    stats = dict(agent.get_statistics())
    return dict(export("after", model), gamma=GAMMA, lambd=0.8, obs=obs, next_obs=next_obs,
                actions=actions, rewards=rewards, terminated=terminated, truncated=truncated,
                adv=adv, v_teacher=v_teacher, **extra, average_value_loss=stats["average_value_loss"],
                average_policy_loss=stats["average_policy_loss"],
                explained_variance=stats["explained_variance"])


def ppo_case():
    n_envs, steps = 2, 6
    model = randomize_biases(Branched(
        nn.Sequential(MLP(OBS, 2, [HIDDEN], nonlinearity=torch.tanh),
                      policies.SoftmaxCategoricalHead()),
        MLP(OBS, 1, [HIDDEN], nonlinearity=torch.tanh)))
    fixture = export("init", model)
    agent = agents.PPO(model, sgd(model), gamma=GAMMA, lambd=0.8, update_interval=n_envs * steps,
                       minibatch_size=n_envs * steps, epochs=1, standardize_advantages=True)
    fixture.update(drive_ppo(agent, model, "_update", lambda d: d, n_envs, steps))
    assert agent.n_updates == 1
    np.savez(out + "/ppo.npz", **fixture)


def make_policy():
    return randomize_biases(nn.Sequential(MLP(OBS, 1, [HIDDEN]), nn.Tanh(),
                                          policies.DeterministicHead()))


def make_critic():
    return randomize_biases(nn.Sequential(ConcatObsAndAction(), MLP(OBS + 1, 1, [HIDDEN])))


def continuous_experiences():
    return random_experiences([1] * BATCH, [False, False, True, False, True, False],
                              lambda: rng.uniform(-1, 1, 1).astype(np.float32))


def ddpg_case():
    policy, critic = make_policy(), make_critic()
    fixture = dict(export("init/policy", policy), **export("init/q_func", critic))
    agent = agents.DDPG(policy, critic, sgd(policy), sgd(critic), replay_buffers.ReplayBuffer(100),
                        GAMMA, explorers.AdditiveGaussian(0.1), replay_start_size=BATCH,
                        minibatch_size=BATCH, target_update_interval=100)
    agent.target_policy.load_state_dict(perturbed_state(policy))
    agent.target_q_function.load_state_dict(perturbed_state(critic))
    fixture.update(export("init_target/policy", agent.target_policy),
                   **export("init_target/q_func", agent.target_q_function))
    arrays = continuous_experiences()
    agent.update(build_experiences(arrays, discrete=False))
    stats = dict(agent.get_statistics())
    fixture.update(export("after/policy", policy), **export("after/q_func", critic), **arrays,
                   gamma=GAMMA, **{k: stats[k] for k in ("average_q", "average_actor_loss",
                                                         "average_critic_loss")})
    np.savez(out + "/ddpg.npz", **fixture)


def td3_case():
    shift, tau, max_grad_norm = 0.6, 0.1, 0.5
    nets = {"policy": make_policy(), "q_func1": make_critic(), "q_func2": make_critic()}
    fixture = {}
    for name, net in nets.items():
        fixture.update(export(f"init/{name}", net))
    agent = agents.TD3(nets["policy"], nets["q_func1"], nets["q_func2"], sgd(nets["policy"]),
                       sgd(nets["q_func1"]), sgd(nets["q_func2"]), replay_buffers.ReplayBuffer(100),
                       GAMMA, explorers.AdditiveGaussian(0.1), replay_start_size=BATCH,
                       minibatch_size=BATCH, soft_update_tau=tau, max_grad_norm=max_grad_norm,
                       policy_update_delay=1,
                       target_policy_smoothing_func=lambda a: torch.clamp(a + shift, -1, 1))
    targets = {"policy": agent.target_policy, "q_func1": agent.target_q_func1,
               "q_func2": agent.target_q_func2}
    for name, target in targets.items():
        target.load_state_dict(perturbed_state(nets[name]))
        fixture.update(export(f"init_target/{name}", target))
    arrays = continuous_experiences()
    agent.update(build_experiences(arrays, discrete=False))
    stats = dict(agent.get_statistics())
    for name in nets:
        fixture.update(export(f"after/{name}", nets[name]),
                       **export(f"after_target/{name}", targets[name]))
    fixture.update(arrays, gamma=GAMMA, smoothing_shift=shift, soft_update_tau=tau,
                   max_grad_norm=max_grad_norm,
                   **{k: stats[k] for k in ("average_q1", "average_q2", "average_q_func1_loss",
                                            "average_q_func2_loss", "average_policy_loss")})
    np.savez(out + "/td3.npz", **fixture)


# -- many updates: SAC, TD3 and DDPG over N_UPDATES updates on recorded minibatches -----------------
# Their own generators, so that these cases are written alike alone or after the others.
N_UPDATES, MINIBATCH, POOL, LONG_GAMMA, LONG_TAU, LONG_LR = 100, 16, 64, 0.99, 0.05, 3e-3


class RecordedDraws:
    """Standard normal draws (float32), handed out in order and kept for the fixture."""

    def __init__(self, seed):
        self.rng, self.taken = np.random.RandomState(seed), []

    def __call__(self, shape):
        z = self.rng.standard_normal(tuple(shape)).astype(np.float32)
        self.taken.append(z)
        return torch.from_numpy(z)


def long_case_setup(seed):
    """A transition pool, the minibatches' rows into it, and a bias randomizer, all from ``seed``."""
    torch.manual_seed(seed)
    case_rng = np.random.RandomState(seed)
    state = case_rng.uniform(-1, 1, (POOL, OBS)).astype(np.float32)
    action = case_rng.uniform(-1, 1, (POOL, 1)).astype(np.float32)
    # a reward that depends on the state and action, so that the critics have something to learn
    reward = (-(state ** 2).sum(axis=1) - 0.5 * action[:, 0] ** 2
              + case_rng.normal(0, 0.1, POOL)).astype(np.float32)
    arrays = dict(state=state, action=action, reward=reward,
                  next_state=case_rng.uniform(-1, 1, (POOL, OBS)).astype(np.float32),
                  is_state_terminal=case_rng.uniform(size=POOL) < 0.1)
    rows = case_rng.randint(0, POOL, (N_UPDATES, MINIBATCH))

    def biases(module):
        with torch.no_grad():
            for name, p in module.named_parameters():
                if name.endswith("bias"):
                    p.copy_(torch.from_numpy(case_rng.uniform(-0.1, 0.1, p.shape).astype(np.float32)))
        return module
    return arrays, rows, biases


def minibatch(arrays, rows):
    return [[dict(state=arrays["state"][i], action=arrays["action"][i],
                  reward=float(arrays["reward"][i]), next_state=arrays["next_state"][i],
                  next_action=None, is_state_terminal=bool(arrays["is_state_terminal"][i]))]
            for i in rows]


def adam(module):
    # a PFRL user's optimizer; the test gives kusari's Adam torch's placement of eps
    return torch.optim.Adam(module.parameters(), lr=LONG_LR, eps=1e-8)


def run_updates(agent, nets, arrays, rows, after_update, **extra):
    """``agent.update`` on each recorded minibatch; returns the fixture: the data, ``extra``, the
    initial parameters, and every parameter and ``after_update()``'s values after each update
    (stacked along a first axis of N_UPDATES)."""
    fixture = dict(arrays, rows=rows, gamma=LONG_GAMMA, soft_update_tau=LONG_TAU, lr=LONG_LR,
                   adam_eps=1e-8, **extra)
    for net_name, net in nets.items():
        fixture.update(export(f"init/{net_name}", net))
    history = []
    for k in range(N_UPDATES):
        agent.update(minibatch(arrays, rows[k]))
        record = after_update()
        for net_name, net in nets.items():
            record.update(export(f"after/{net_name}", net))
        history.append(record)
    for key in history[0]:
        fixture[key] = np.stack([np.asarray(h[key]) for h in history])
    return fixture


def sac_updates_case():
    arrays, rows, biases = long_case_setup(1)
    draws = RecordedDraws(11)

    class RecordedNormal(torch.distributions.Normal):
        # torch's reparameterized draw, loc + eps * scale, with eps from the recorded draws
        def rsample(self, sample_shape=torch.Size()):
            return self.loc + draws(self._extended_shape(sample_shape)) * self.scale

        def sample(self, sample_shape=torch.Size()):
            with torch.no_grad():
                return self.rsample(sample_shape)

    def squashed_diagonal_gaussian_head(x):
        mean, log_scale = torch.chunk(x, 2, dim=1)
        base = torch.distributions.Independent(
            RecordedNormal(mean, torch.exp(torch.clamp(log_scale, -20.0, 2.0))), 1)
        return torch.distributions.TransformedDistribution(
            base, [torch.distributions.transforms.TanhTransform(cache_size=1)])

    policy = biases(nn.Sequential(MLP(OBS, 2, [HIDDEN]), pfrl.nn.Lambda(squashed_diagonal_gaussian_head)))
    q1, q2 = biases(make_long_critic()), biases(make_long_critic())
    agent = agents.SoftActorCritic(
        policy, q1, q2, adam(policy), adam(q1), adam(q2), replay_buffers.ReplayBuffer(100), LONG_GAMMA,
        replay_start_size=MINIBATCH, minibatch_size=MINIBATCH, soft_update_tau=LONG_TAU,
        initial_temperature=0.5, entropy_target=-1.0, temperature_optimizer_lr=LONG_LR)
    nets = {"policy": policy, "q_func1": q1, "q_func2": q2, "target_q_func1": agent.target_q_func1,
            "target_q_func2": agent.target_q_func2}

    def after_update():
        return dict(q_func1_loss=agent.q_func1_loss_record[-1], q_func2_loss=agent.q_func2_loss_record[-1],
                    temperature=agent.temperature,
                    log_prob=-np.asarray(list(agent.entropy_record)[-MINIBATCH:]))
    fixture = run_updates(agent, nets, arrays, rows, after_update, initial_temperature=0.5,
                          entropy_target=-1.0)
    # two draws per update: the next actions' (sample), then the policy loss's (rsample)
    fixture["noise"] = np.stack(draws.taken).reshape(N_UPDATES, 2, MINIBATCH, 1)
    np.savez_compressed(out + "/sac_updates.npz", **fixture)


def make_long_critic():
    return nn.Sequential(ConcatObsAndAction(), MLP(OBS + 1, 1, [HIDDEN]))


def make_long_policy(biases):
    return biases(nn.Sequential(MLP(OBS, 1, [HIDDEN]), nn.Tanh(), policies.DeterministicHead()))


def td3_updates_case():
    arrays, rows, biases = long_case_setup(2)
    draws = RecordedDraws(12)
    randn_like = torch.randn_like
    # PFRL's default target policy smoothing, clip(a + clip(0.2 * z, -0.5, 0.5), -1, 1), on recorded z
    torch.randn_like = lambda a: draws(a.shape)
    policy = make_long_policy(biases)
    q1, q2 = biases(make_long_critic()), biases(make_long_critic())
    agent = agents.TD3(policy, q1, q2, adam(policy), adam(q1), adam(q2), replay_buffers.ReplayBuffer(100),
                       LONG_GAMMA, explorers.AdditiveGaussian(0.1), replay_start_size=MINIBATCH,
                       minibatch_size=MINIBATCH, soft_update_tau=LONG_TAU, policy_update_delay=2)
    nets = {"policy": policy, "q_func1": q1, "q_func2": q2, "target_policy": agent.target_policy,
            "target_q_func1": agent.target_q_func1, "target_q_func2": agent.target_q_func2}

    def after_update():
        return dict(q_func1_loss=agent.q_func1_loss_record[-1], q_func2_loss=agent.q_func2_loss_record[-1],
                    policy_loss=agent.policy_loss_record[-1] if agent.policy_loss_record else np.nan,
                    policy_n_updates=agent.policy_n_updates)
    try:
        fixture = run_updates(agent, nets, arrays, rows, after_update, policy_update_delay=2)
    finally:
        torch.randn_like = randn_like
    fixture["noise"] = np.stack(draws.taken)  # (N_UPDATES, MINIBATCH, 1)
    np.savez_compressed(out + "/td3_updates.npz", **fixture)


def ddpg_updates_case():
    arrays, rows, biases = long_case_setup(3)
    policy, critic = make_long_policy(biases), biases(make_long_critic())
    agent = agents.DDPG(policy, critic, adam(policy), adam(critic), replay_buffers.ReplayBuffer(100),
                        LONG_GAMMA, explorers.AdditiveGaussian(0.1), replay_start_size=MINIBATCH,
                        minibatch_size=MINIBATCH, target_update_method="soft",
                        soft_update_tau=LONG_TAU, target_update_interval=1)
    nets = {"policy": policy, "q_func": critic, "target_policy": agent.target_policy,
            "target_q_func": agent.target_q_function}
    update = agent.update

    def update_and_sync(experiences):
        # PFRL syncs DDPG's targets in observe, every target_update_interval (1) steps; so here
        update(experiences)
        agent.sync_target_network()
    agent.update = update_and_sync

    def after_update():
        return dict(critic_loss=agent.critic_loss_record[-1], actor_loss=agent.actor_loss_record[-1])
    np.savez_compressed(out + "/ddpg_updates.npz",
                        **run_updates(agent, nets, arrays, rows, after_update))


def categorical_dqn_cases():
    global rng
    rng = np.random.RandomState(51)  # its own draws, so that it is written alone or after the others
    torch.manual_seed(51)
    n_atoms, v_min, v_max = 11, -3.0, 3.0

    def make_q():
        return q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
            OBS, 2, n_atoms, v_min, v_max, HIDDEN, 1)

    q = randomize_biases(make_q())
    init = copy.deepcopy(q.state_dict())
    # far enough from the model that the two choose different next actions (Double's target differs);
    # the atoms (a buffer) stay where they are
    target = {k: v if k == "z_values" else v + torch.from_numpy(rng.normal(0, 1, v.shape).astype(np.float32))
              for k, v in init.items()}
    arrays = random_experiences([1, 2, 3, 3, 2, 1], [False, True, False, True, False, False],
                                lambda: rng.randint(0, 2))
    max_grad_norm = 0.3
    target_dists = []
    for cls, name in ((agents.CategoricalDQN, "categorical_dqn"),
                      (agents.CategoricalDoubleDQN, "categorical_double_dqn")):
        model = make_q()
        model.load_state_dict(init)
        agent = cls(model, sgd(model), replay_buffers.ReplayBuffer(100), GAMMA, explorers.Greedy(),
                    replay_start_size=BATCH, minibatch_size=BATCH, target_update_interval=100,
                    batch_accumulator="mean", max_grad_norm=max_grad_norm)
        agent.target_model.load_state_dict(target)
        experiences = build_experiences(arrays, discrete=True)
        exp_batch = batch_experiences(experiences, agent.device, agent.phi, agent.gamma)
        probe = copy.deepcopy(agent)
        norm = grad_l2_norm(probe.model, probe._compute_loss(exp_batch))
        assert norm > max_grad_norm, (name, norm)
        with torch.no_grad():
            target_dist = agent._compute_target_values(exp_batch).numpy()
        target_dists.append(target_dist)
        fixture = dict(export("init", q), **export("init_target", agent.target_model), **arrays)
        agent.update(experiences)
        stats = dict(agent.get_statistics())
        np.savez(out + f"/{name}.npz", **fixture, **export("after", agent.model), gamma=GAMMA,
                 n_atoms=n_atoms, v_min=v_min, v_max=v_max, max_grad_norm=max_grad_norm,
                 grad_norm=norm, target_dist=target_dist, average_q=stats["average_q"],
                 average_loss=stats["average_loss"])
    assert np.abs(target_dists[0] - target_dists[1]).max() > 0.1, "Double's target equals DQN's"


def iqn_case():
    global rng
    rng = np.random.RandomState(52)  # its own draws, so that it is written alone or after the others
    torch.manual_seed(52)
    n, n_prime, k, n_basis, n_updates = 5, 4, 3, 6, 3
    from pfrl.agents.iqn import CosineBasisLinear, ImplicitQuantileQFunction

    def make_q():
        return ImplicitQuantileQFunction(psi=nn.Sequential(nn.Linear(OBS, HIDDEN), nn.ReLU()),
                                         phi=nn.Sequential(CosineBasisLinear(n_basis, HIDDEN), nn.ReLU()),
                                         f=nn.Linear(HIDDEN, 2))

    q = randomize_biases(make_q())
    fixture = export("init", q)
    agent = agents.IQN(q, sgd(q), replay_buffers.ReplayBuffer(100), GAMMA, explorers.Greedy(),
                       replay_start_size=BATCH, minibatch_size=BATCH, target_update_interval=100,
                       batch_accumulator="mean", quantile_thresholds_N=n, quantile_thresholds_N_prime=n_prime,
                       quantile_thresholds_K=k)
    agent.target_model.load_state_dict(
        {key: v + torch.from_numpy(rng.normal(0, 0.5, v.shape).astype(np.float32))
         for key, v in q.state_dict().items()})
    fixture.update(export("init_target", agent.target_model))
    arrays = random_experiences([1, 2, 3, 3, 2, 1], [False, True, False, True, False, False],
                                lambda: rng.randint(0, 2))
    draws = []
    rand = torch.rand

    def recorded_rand(*shape, **kwargs):
        taus = torch.from_numpy(rng.uniform(0, 1, shape).astype(np.float32))
        draws.append(taus.numpy().copy())
        return taus
    torch.rand = recorded_rand
    try:
        for _ in range(n_updates):
            agent.update(build_experiences(arrays, discrete=True))
    finally:
        torch.rand = rand
    stats = dict(agent.get_statistics())
    # per update: the levels of the prediction (B, N), of the greedy action (B, K), of the targets (B, N')
    fixture.update(export("after", q), **arrays, gamma=GAMMA, n=n, n_prime=n_prime, k=k, n_basis=n_basis,
                   taus=np.stack(draws[0::3]), taus_tilde=np.stack(draws[1::3]), taus_prime=np.stack(draws[2::3]),
                   average_q=stats["average_q"], average_loss=stats["average_loss"])
    np.savez(out + "/iqn.npz", **fixture)


def dqn_variant_cases():
    global rng
    rng = np.random.RandomState(53)  # its own draws, so that it is written alone or after the others
    torch.manual_seed(53)
    n_updates = 3
    from pfrl.agents.dpp import DPPL, DPPGreedy  # pfrl.agents exports DPP only
    q = randomize_biases(q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1))
    init, target = copy.deepcopy(q.state_dict()), perturbed_state(q)
    # one minibatch of 6 n-step experiences per update, concatenated
    lengths = [1, 2, 3, 3, 2, 1] * n_updates
    terminal = [False, True, False, True, False, False] * n_updates
    arrays = random_experiences(lengths, terminal, lambda: rng.randint(0, 2))
    cases = [(agents.AL, "al", {"alpha": 0.7}), (agents.PAL, "pal", {"alpha": 0.7}),
             (agents.DoublePAL, "double_pal", {"alpha": 0.7}), (agents.DPP, "dpp", {"eta": 2.0}),
             (DPPL, "dppl", {"eta": 2.0}), (DPPGreedy, "dpp_greedy", {})]
    for cls, name, kwargs in cases:
        model = q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1)
        model.load_state_dict(init)
        agent = cls(model, sgd(model), replay_buffers.ReplayBuffer(100), GAMMA, explorers.Greedy(),
                    replay_start_size=BATCH, minibatch_size=BATCH, target_update_interval=100,
                    clip_delta=True, batch_accumulator="mean", **kwargs)
        agent.target_model.load_state_dict(target)
        experiences = build_experiences(arrays, discrete=True)
        fixture = dict(export("init", q), **export("init_target", agent.target_model), **arrays)
        history = []
        for k in range(n_updates):
            agent.update(experiences[k * BATCH:(k + 1) * BATCH])
            history.append(export("after", agent.model))
        stats = dict(agent.get_statistics())
        fixture.update({key: np.stack([h[key] for h in history]) for key in history[0]})
        np.savez(out + f"/{name}.npz", **fixture, gamma=GAMMA, n_updates=n_updates,
                 average_q=stats["average_q"], average_loss=stats["average_loss"],
                 **{key: float(value) for key, value in kwargs.items()})


CASES = {"nstep": nstep_case, "dqn": dqn_cases, "ppo": ppo_case, "ddpg": ddpg_case, "td3": td3_case,
         "sac_updates": sac_updates_case, "td3_updates": td3_updates_case,
         "ddpg_updates": ddpg_updates_case, "categorical_dqn": categorical_dqn_cases,
         "iqn": iqn_case, "dqn_variants": dqn_variant_cases}


def rainbow_params(named_shapes, rng):
    """Seeded parameters for the large Rainbow network (26 MB, too large to store), in the order of
    the names with ``/`` for ``.``:
    ``U(-1, 1)`` times ``1/sqrt(fan_in)`` (weights) or 0.1 (biases), noise amplitudes (``sigma``)
    from ``U(0, 1)`` times the same; tests/rl/test_pfrl_parity_rainbow.py draws them alike."""
    result = {}
    for name, shape in sorted(named_shapes, key=lambda item: item[0].replace(".", "/")):
        scale = 1 / np.sqrt(np.prod(shape[1:])) if len(shape) > 1 else 0.1
        low = 0.0 if "sigma" in name else -1.0
        result[name] = (rng.uniform(low, 1, shape) * scale).astype(np.float32)
    return result


def rainbow_case():
    """``rainbow.npz`` (seed 54): three ``CategoricalDoubleDQN`` updates (SGD lr 0.1, mean, the
    importance weights ``weight`` (6,)) of ``DistributionalDuelingDQN(2 actions, 11 atoms in
    [-3, 3], 1 input channel)`` made noisy by ``to_factorized_noisy(sigma_scale=0.5)``, as PFRL's
    Rainbow example builds it, on 6 experiences of 1 to 3 steps of uint8 84x84 frames through the
    example's ``phi`` (x / 255). The model and target parameters are ``rainbow_params`` draws (the
    test repeats them); stored: PFRL's own initial noise amplitudes (``sigma_init/...``, the
    constant of each array), every
    noise draw in the order drawn (``noise``: each noisy layer's ``in + out`` standard normals),
    each update's priorities (``errors`` (3, 6)), ``average_q``, ``average_loss``, and after the
    updates each parameter (``after/...``), of those larger than 4096 only the values at 4096
    seeded flat positions (``after_index/...``)."""
    from pfrl.nn import to_factorized_noisy
    from pfrl.nn import noisy_linear
    rng = np.random.RandomState(54)  # its own draws, so that it is written alone or after the others
    torch.manual_seed(54)
    n_updates, n_atoms, v_min, v_max, sigma_scale, n_sub = 3, 11, -3.0, 3.0, 0.5, 4096
    q = q_functions.DistributionalDuelingDQN(2, n_atoms, v_min, v_max, n_input_channels=1)
    to_factorized_noisy(q, sigma_scale=sigma_scale)
    fixture = {}
    for name, p in q.named_parameters():
        if "sigma" in name:  # one constant per array
            (fixture[f"sigma_init/{name.replace('.', '/')}"],) = np.unique(p.detach().numpy())
    shapes = [(name, tuple(p.shape)) for name, p in q.named_parameters()]
    init, init_target = rainbow_params(shapes, rng), rainbow_params(shapes, rng)
    with torch.no_grad():
        for name, p in q.named_parameters():
            p.copy_(torch.from_numpy(init[name]))
    agent = agents.CategoricalDoubleDQN(
        q, sgd(q), replay_buffers.PrioritizedReplayBuffer(100), GAMMA, explorers.Greedy(),
        replay_start_size=BATCH, minibatch_size=BATCH, target_update_interval=100,
        batch_accumulator="mean", phi=lambda x: np.asarray(x, dtype=np.float32) / 255)
    with torch.no_grad():
        for name, p in agent.target_model.named_parameters():
            p.copy_(torch.from_numpy(init_target[name]))
    lengths = [1, 2, 3, 3, 2, 1]
    arrays = {k: [] for k in ("state", "action", "reward", "next_state", "is_state_terminal")}
    for n, term in zip(lengths, [False, True, False, True, False, False]):
        frames = rng.randint(0, 256, (n + 1, 1, 84, 84)).astype(np.uint8)
        arrays["state"].extend(frames[:-1])
        arrays["next_state"].extend(frames[1:])
        arrays["action"].extend(rng.randint(0, 2, n))
        arrays["reward"].extend(rng.uniform(-2, 2, n).astype(np.float32))
        arrays["is_state_terminal"].extend([False] * (n - 1) + [term])
    arrays = {k: np.asarray(v) for k, v in arrays.items()}
    arrays["exp_len"] = np.asarray(lengths, np.int64)
    arrays["weight"] = rng.uniform(0.3, 1, BATCH).astype(np.float32)
    draws, errors = [], []

    def recorded_normal(mean, std, size, dtype, device):
        e = torch.from_numpy(rng.standard_normal(size).astype(np.float32))
        draws.append(e.numpy().copy())
        return e
    agent.replay_buffer.update_errors = lambda e: errors.append(list(e))
    normal = noisy_linear.torch.normal
    noisy_linear.torch.normal = recorded_normal
    try:
        for _ in range(n_updates):
            experiences = build_experiences(arrays, discrete=True)
            for exp, w in zip(experiences, arrays["weight"]):
                exp[0]["weight"] = float(w)
            agent.update(experiences)
    finally:
        noisy_linear.torch.normal = normal
    stats = dict(agent.get_statistics())
    for name, p in agent.model.named_parameters():
        key, value = name.replace(".", "/"), p.detach().numpy().ravel()
        if value.size > n_sub:
            index = np.sort(rng.choice(value.size, n_sub, replace=False)).astype(np.int32)
            fixture["after_index/" + key], value = index, value[index]
        fixture["after/" + key] = value.copy()
    np.savez_compressed(out + "/rainbow.npz", **fixture, **arrays, gamma=GAMMA, n_atoms=n_atoms,
                        v_min=v_min, v_max=v_max, sigma_scale=sigma_scale, n_updates=n_updates,
                        noise=np.concatenate(draws), noise_sizes=np.asarray([len(d) for d in draws]),
                        errors=np.asarray(errors, np.float32), average_q=stats["average_q"],
                        average_loss=stats["average_loss"])


CASES["rainbow"] = rainbow_case


def trpo_run(name, seed, make_policy_net, action_fn, **kwargs):
    """``<name>.npz`` (seed ``seed``): PFRL's ``TRPO`` driven through ``batch_act``/``batch_observe``
    for 3 iterations of 2 environments x 8 steps (terminations and a truncation; each sampled
    action replaced by the recorded one), value function on SGD lr 0.1 (2 epochs of minibatches of
    6; PFRL's minibatches recorded as rollout positions ``t * 2 + env``). Stored: ``init/...``
    and, per update, ``after/...`` (first axis 3) of the policy and the vf; ``obs``, ``next_obs``,
    ``actions``, ``rewards``, ``terminated``, ``truncated`` (24 steps, 2 envs); each update's
    ``adv`` and ``v_teacher`` (3, 8, 2), its value minibatches ``vf_minibatches`` (3, 6, 6), the
    KL divergence and step size it accepted (``kl``, ``step_size``; step 0 and KL NaN when the line
    search failed) and the final statistics."""
    global rng
    rng = np.random.RandomState(seed)
    torch.manual_seed(seed)
    n_envs, steps, n_updates, vf_batch = 2, 8, 3, 6
    policy = randomize_biases(make_policy_net())
    vf = randomize_biases(MLP(OBS, 1, [HIDDEN], nonlinearity=torch.tanh))
    fixture = dict(export("init/policy", policy), **export("init/vf", vf))
    agent = agents.TRPO(policy, vf, sgd(vf), gamma=GAMMA, lambd=0.8, update_interval=n_envs * steps,
                        vf_epochs=2, vf_batch_size=vf_batch, **kwargs)
    total = steps * n_updates
    terminated = np.zeros((total, n_envs), bool)
    truncated = np.zeros((total, n_envs), bool)
    terminated[[4, 13, 20], 0] = True
    terminated[[2, 10], 1] = True
    truncated[[17], 1] = True
    truncated[[9], 0] = True
    obs, next_obs = episode_observations(terminated, truncated)
    actions = np.stack([np.stack([action_fn() for _ in range(n_envs)]) for _ in range(total)])
    rewards = rng.uniform(-1, 1, (total, n_envs)).astype(np.float32)

    datasets, minibatches, history = [], [], []
    trpo_module = sys.modules[type(agent).__module__]
    yield_minibatches = trpo_module._yield_minibatches

    def recording_minibatches(dataset, minibatch_size, num_epochs):
        for batch in yield_minibatches(dataset, minibatch_size, num_epochs):
            minibatches[-1].append([next(k for k, d in enumerate(dataset) if d is b) for b in batch])
            yield batch

    trpo_module._yield_minibatches = recording_minibatches
    update = agent._update

    def recording_update(dataset):
        datasets.append(list(dataset))
        minibatches.append([])
        update(dataset)
        history.append(dict(export("after/policy", policy), **export("after/vf", vf)))
    agent._update = recording_update
    kl, step_size = [], []
    try:
        for t in range(total):
            agent.batch_act(obs[t])
            agent.batch_last_action = list(actions[t])  # the fixed action instead of the sampled one
            n_kl = len(agent.kl_record)
            agent.batch_observe(next_obs[t], rewards[t], terminated[t], truncated[t])
            if len(agent.policy_step_size_record) > len(step_size):
                step_size.append(agent.policy_step_size_record[-1])
                kl.append(agent.kl_record[-1] if len(agent.kl_record) > n_kl else np.nan)
    finally:
        trpo_module._yield_minibatches = yield_minibatches
    assert len(datasets) == n_updates and all(len(d) == n_envs * steps for d in datasets)
    adv = np.full((n_updates, steps, n_envs), np.nan, np.float32)
    v_teacher = np.full((n_updates, steps, n_envs), np.nan, np.float32)
    positions = []  # PFRL's dataset order as kusari's rollout positions t * n_envs + env
    for u, dataset in enumerate(datasets):
        block = obs[u * steps:(u + 1) * steps]
        where = []
        for transition in dataset:
            t, i = map(int, np.argwhere((block == transition["state"]).all(axis=2))[0])
            adv[u, t, i], v_teacher[u, t, i] = transition["adv"], transition["v_teacher"]
            where.append(t * n_envs + i)
        positions.append(where)
    vf_minibatches = np.asarray([[[positions[u][k] for k in batch] for batch in minibatches[u]]
                                 for u in range(n_updates)])
    stats = dict(agent.get_statistics())
    fixture.update({key: np.stack([h[key] for h in history]) for key in history[0]})
    np.savez(out + f"/{name}.npz", **fixture, gamma=GAMMA, lambd=0.8, n_updates=n_updates,
             vf_batch_size=vf_batch, obs=obs, next_obs=next_obs, actions=actions, rewards=rewards,
             terminated=terminated, truncated=truncated, adv=adv, v_teacher=v_teacher,
             vf_minibatches=vf_minibatches, kl=np.asarray(kl), step_size=np.asarray(step_size),
             **{key: float(value) for key, value in kwargs.items() if np.isscalar(value)},
             **{"stat/" + key: value for key, value in stats.items()})


def trpo_cases():
    """``trpo.npz`` (seed 55): a softmax policy ``MLP(3, 2, [8], tanh)``, entropy_coef 0.01,
    max_kl 0.01, max_grad_norm 0.5 on the vf. ``trpo_gaussian.npz`` (seed 56): a Gaussian policy
    ``MLP(3, 2, [8], tanh)`` into ``GaussianHeadWithStateIndependentCovariance(2, 'diagonal')`` with
    actions in [-1, 1]^2, an ``EmpiricalNormalization(3)`` on the observations, max_kl 0.5 with
    line_search_max_backtrack 3 (large enough that the line search backtracks), entropy_coef 0."""
    trpo_run("trpo", 55, lambda: nn.Sequential(MLP(OBS, 2, [HIDDEN], nonlinearity=torch.tanh),
                                               policies.SoftmaxCategoricalHead()),
             lambda: rng.randint(0, 2), entropy_coef=0.01, max_kl=0.01, max_grad_norm=0.5)
    trpo_run("trpo_gaussian", 56,
             lambda: nn.Sequential(MLP(OBS, 2, [HIDDEN], nonlinearity=torch.tanh),
                                   policies.GaussianHeadWithStateIndependentCovariance(
                                       2, var_type="diagonal")),
             lambda: rng.uniform(-1, 1, 2).astype(np.float32), entropy_coef=0.0, max_kl=0.5,
             line_search_max_backtrack=3, obs_normalizer=pfrl.nn.EmpiricalNormalization(OBS))


CASES["trpo"] = trpo_cases


def recurrent_dqn_case():
    """``recurrent_dqn.npz`` (seed 57): ``DQN(recurrent=True)`` on ``RecurrentSequential(Linear(3, 8),
    ReLU, LSTM(8, 8), Linear(8, 2), DiscreteActionValueHead())`` with a differing target network,
    driven through ``batch_act``/``batch_observe`` on two environments for ``obs`` (9, 2, 3),
    ``reward``, ``done`` and ``reset`` (8, 2) (no update while driving), taking the ``actions`` (8, 2)
    (epsilon-greedy with epsilon 1 over them).
    Its ``EpisodicReplayBuffer`` then holds three episodes; ``ep_<k>_<field>`` are episode k's
    transitions (``recurrent_state_h``/``_c`` and ``next_recurrent_state_h``/``_c`` (T, 1, 8), zeros
    where PFRL stored None). Then three ``update_from_episodes`` on the episodes ``update_episodes``
    (3, 3; -1 pads) (SGD lr 0.1, Huber, mean): the parameters after each (``after/...``) and
    ``losses``."""
    global rng
    rng = np.random.RandomState(57)
    torch.manual_seed(57)
    q = randomize_biases(pfrl.nn.RecurrentSequential(
        nn.Linear(OBS, HIDDEN), nn.ReLU(), nn.LSTM(HIDDEN, HIDDEN), nn.Linear(HIDDEN, 2),
        q_functions.DiscreteActionValueHead()))
    steps = 8
    planned = rng.randint(0, 2, (steps, 2))
    planned_actions = iter(planned.ravel().tolist())
    agent = agents.DQN(q, sgd(q), replay_buffers.EpisodicReplayBuffer(1000), GAMMA,
                       explorers.ConstantEpsilonGreedy(1.0, lambda: next(planned_actions)),
                       replay_start_size=1000, minibatch_size=3, target_update_interval=10000,
                       clip_delta=True, batch_accumulator="mean", recurrent=True)
    agent.target_model.load_state_dict(perturbed_state(q))
    fixture = dict(export("init", q), **export("init_target", agent.target_model))
    obs = rng.uniform(-1, 1, (steps + 1, 2, OBS)).astype(np.float32)
    reward = rng.uniform(-1, 1, (steps, 2)).astype(np.float32)
    done = np.zeros((steps, 2), bool)
    reset = np.zeros((steps, 2), bool)
    done[2, 0] = reset[5, 0] = done[6, 1] = True  # stored episodes: env 0's 0-2 and 3-5, env 1's 0-6
    for t in range(steps):
        assert list(agent.batch_act(list(obs[t]))) == list(planned[t])
        agent.batch_observe(list(obs[t + 1]), list(reward[t]), list(done[t]), list(reset[t]))
    episodes = list(agent.replay_buffer.episodic_memory)
    assert [len(e) for e in episodes] == [3, 3, 7], [len(e) for e in episodes]
    for k, episode in enumerate(episodes):
        for field in ("state", "action", "reward", "next_state", "is_state_terminal"):
            fixture[f"ep_{k}_{field}"] = np.asarray([t[field] for t in episode])
        for key in ("recurrent_state", "next_recurrent_state"):
            for part, index in (("h", 0), ("c", 1)):
                fixture[f"ep_{k}_{key}_{part}"] = np.stack(
                    [np.zeros((1, HIDDEN), np.float32) if t[key] is None else t[key][0][index]
                     for t in episode])
    update_episodes = [[0, 1, -1], [1, 2, -1], [0, 1, 2]]
    history = []
    for chosen in update_episodes:
        agent.update_from_episodes([episodes[k] for k in chosen if k >= 0])
        history.append(export("after", agent.model))
    fixture.update({key: np.stack([h[key] for h in history]) for key in history[0]})
    np.savez(out + "/recurrent_dqn.npz", **fixture, obs=obs, reward=reward, done=done, reset=reset,
             actions=planned, update_episodes=np.asarray(update_episodes), gamma=GAMMA,
             losses=np.asarray(list(agent.loss_record), np.float32))


CASES["recurrent_dqn"] = recurrent_dqn_case


def recurrent_ppo_run(name, max_len):
    """One recurrent PPO iteration as ``ppo_case`` drives it (2 environments, 6 steps, fixed actions,
    a truncation and terminations), on ``RecurrentSequential(Linear(3, 8), Tanh, LSTM(8, 8),
    Branched(Sequential(Linear(8, 2), SoftmaxCategoricalHead()), Linear(8, 1)))``, two epochs of one
    minibatch, ``max_recurrent_sequence_len=max_len``; the same contents as ``ppo.npz``."""
    n_envs, steps = 2, 6
    model = randomize_biases(pfrl.nn.RecurrentSequential(
        nn.Linear(OBS, HIDDEN), nn.Tanh(), nn.LSTM(HIDDEN, HIDDEN),
        Branched(nn.Sequential(nn.Linear(HIDDEN, 2), policies.SoftmaxCategoricalHead()),
                 nn.Linear(HIDDEN, 1))))
    fixture = export("init", model)
    agent = agents.PPO(model, sgd(model), gamma=GAMMA, lambd=0.8, update_interval=n_envs * steps,
                       minibatch_size=n_envs * steps, epochs=2, standardize_advantages=True,
                       recurrent=True, max_recurrent_sequence_len=max_len)
    fixture.update(drive_ppo(agent, model, "_update_recurrent", lambda d: (t for seq in d for t in seq),
                             n_envs, steps, max_len=-1 if max_len is None else max_len))
    assert agent.n_updates == 2
    np.savez(out + f"/{name}.npz", **fixture)


def recurrent_ppo_cases():
    """``recurrent_ppo.npz`` (seed 58): whole sequences; ``recurrent_ppo_cut.npz`` (seed 59):
    ``max_recurrent_sequence_len=2``."""
    global rng
    # PFRL 0.4.0's recurrent PPO takes float() of each value, an array of shape (1,), which NumPy 2
    # refuses; its module gets a float that takes them (the same numbers)
    ppo_module = sys.modules[agents.PPO.__module__]
    ppo_module.float = lambda x: float(x.reshape(()) if isinstance(x, np.ndarray) else x)
    try:
        for name, seed, max_len in (("recurrent_ppo", 58, None), ("recurrent_ppo_cut", 59, 2)):
            rng = np.random.RandomState(seed)
            torch.manual_seed(seed)
            random.seed(seed)
            recurrent_ppo_run(name, max_len)
    finally:
        del ppo_module.float


CASES["recurrent_ppo"] = recurrent_ppo_cases


def ppo_obs_normalizer_case():
    """``ppo_obs_normalizer.npz`` (seed 60): ``ppo_case``'s agent with
    ``obs_normalizer=EmpiricalNormalization(3, clip_threshold=3)``, two epochs of one minibatch of
    the whole rollout, driven for 2 iterations of 2 environments x 6 steps (terminations and
    truncations, fixed actions) on observations far from zero mean and unit variance (the first
    iteration's are partly clipped). Stored: ``init/...``; per update ``after/...`` (first axis 2),
    ``adv`` and ``v_teacher`` (2, 6, 2) and the normalizer's ``norm_mean``, ``norm_var`` (2, 3) and
    ``norm_count`` (2,) after it; ``obs``, ``next_obs``, ``actions``, ``rewards``, ``terminated``,
    ``truncated`` (12 steps, 2 envs); the final statistics."""
    global rng
    rng = np.random.RandomState(60)
    torch.manual_seed(60)
    random.seed(60)
    n_envs, steps, n_updates = 2, 6, 2
    model = randomize_biases(Branched(
        nn.Sequential(MLP(OBS, 2, [HIDDEN], nonlinearity=torch.tanh),
                      policies.SoftmaxCategoricalHead()),
        MLP(OBS, 1, [HIDDEN], nonlinearity=torch.tanh)))
    fixture = export("init", model)
    normalizer = pfrl.nn.EmpiricalNormalization(OBS, clip_threshold=3)
    agent = agents.PPO(model, sgd(model), normalizer, gamma=GAMMA, lambd=0.8,
                       update_interval=n_envs * steps, minibatch_size=n_envs * steps, epochs=2,
                       standardize_advantages=True)
    total = steps * n_updates
    terminated = np.zeros((total, n_envs), bool)
    truncated = np.zeros((total, n_envs), bool)
    terminated[[4, 8], 0] = True
    terminated[[2, 10], 1] = True
    truncated[[1], 0] = True
    truncated[[7], 1] = True
    center = np.array([2.0, -1.0, 0.5], np.float32)
    scale = np.array([1.5, 0.5, 3.0], np.float32)

    def draw(*shape):
        return (center + scale * rng.uniform(-1, 1, shape + (OBS,))).astype(np.float32)

    obs, next_obs = episode_observations(terminated, truncated, draw)
    actions = rng.randint(0, 2, (total, n_envs))
    rewards = rng.uniform(-1, 1, (total, n_envs)).astype(np.float32)

    datasets, history = [], []
    update = agent._update

    def recording_update(dataset):
        datasets.append(list(dataset))
        update(dataset)
        history.append(dict(export("after", model), norm_mean=normalizer.mean.numpy(),
                            norm_var=normalizer._var[0].numpy().copy(),
                            norm_count=int(normalizer.count)))
    agent._update = recording_update
    for t in range(total):
        agent.batch_act(obs[t])
        agent.batch_last_action = list(actions[t])  # the fixed action instead of the sampled one
        agent.batch_observe(next_obs[t], rewards[t], terminated[t], truncated[t])
    assert len(datasets) == n_updates and agent.n_updates == n_updates * 2
    adv = np.full((n_updates, steps, n_envs), np.nan, np.float32)
    v_teacher = np.full((n_updates, steps, n_envs), np.nan, np.float32)
    for u, dataset in enumerate(datasets):
        block = obs[u * steps:(u + 1) * steps]
        for transition in dataset:
            t, i = map(int, np.argwhere((block == transition["state"]).all(axis=2))[0])
            adv[u, t, i], v_teacher[u, t, i] = transition["adv"], transition["v_teacher"]
    stats = dict(agent.get_statistics())
    fixture.update({key: np.stack([h[key] for h in history]) for key in history[0]})
    fixture.update(gamma=GAMMA, lambd=0.8, clip_threshold=3.0, obs=obs, next_obs=next_obs,
                   actions=actions, rewards=rewards, terminated=terminated, truncated=truncated,
                   adv=adv, v_teacher=v_teacher, average_value_loss=stats["average_value_loss"],
                   average_policy_loss=stats["average_policy_loss"],
                   explained_variance=stats["explained_variance"])
    np.savez(out + "/ppo_obs_normalizer.npz", **fixture)


CASES["ppo_obs_normalizer"] = ppo_obs_normalizer_case
for case in sys.argv[2:] or CASES:  # in this order: the first five share one generator
    CASES[case]()
print("pfrl", version("pfrl"), "torch", torch.__version__, "wrote", out)
'''


def _peer_python(python: str | None) -> str:
    """The interpreter with PFRL 0.4.0: ``python`` if given, else the bench's ``rl-peers`` venv."""
    if python is not None:
        return python
    sys.path.insert(0, str(ROOT))
    from bench.environments import ensure

    return ensure("rl-peers")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=pathlib.Path, default=DEFAULT_OUT,
                        help="output directory (default: tests/rl/fixtures/pfrl)")
    parser.add_argument("--python", help="an interpreter that already has pfrl==0.4.0 and torch")
    parser.add_argument("--cases", nargs="+", default=[],
                        help="write only these cases (default: all); the first five (nstep dqn ppo "
                             "ddpg td3) draw from one generator, so they are written together")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    python = _peer_python(args.python)
    # PFRL imports the old gym, which warns at import; the fixtures do not depend on it
    subprocess.run([python, "-W", "ignore", "-c", PEER_SCRIPT, str(args.out), *args.cases], check=True)


if __name__ == "__main__":
    main()
