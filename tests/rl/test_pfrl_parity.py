"""kusari.rl against PFRL 0.4.0: one update from PFRL's own initial parameters and data.

The fixtures in fixtures/pfrl/ were written by PFRL on torch (tools/make_pfrl_fixture.py); torch is
not needed here. Parameter names are PFRL's with ``/`` for ``.``: torch's ``weight`` (out, in) is
kusari's ``W`` (same layout), ``bias`` is ``b``.
"""
import math
import pathlib

import kusari
import kusari.functions as F
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, nn, policies, q_functions, replay_buffers
from kusari.rl.agents.al import AL
from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN, CategoricalDQN
from kusari.rl.agents.ddpg import DDPG
from kusari.rl.agents.iqn import IQN, CosineBasisLinear, ImplicitQuantileQFunction
from kusari.rl.agents.double_dqn import DoubleDQN
from kusari.rl.agents.double_pal import DoublePAL
from kusari.rl.agents.dpp import DPP, DPPL, DPPGreedy
from kusari.rl.agents.dqn import DQN
from kusari.rl.agents.pal import PAL
from kusari.rl.agents.ppo import PPO
from kusari.rl.agents.soft_actor_critic import SoftActorCritic
from kusari.rl.agents.td3 import TD3
from kusari.rl.replay_buffer import batch_experiences

FIXTURES = pathlib.Path(__file__).parent / "fixtures" / "pfrl"
RTOL, ATOL = 1e-5, 1e-6
OBS, HIDDEN = 3, 8


def load_fixture(name: str) -> dict:
    path = FIXTURES / f"{name}.npz"
    if not path.is_file():
        pytest.skip(f"{path} is missing; write it with tools/make_pfrl_fixture.py")
    with numpy.load(path) as f:
        return dict(f)


def _torch_name(name: str) -> str:
    """kusari's ``/model/output/W`` as the fixture's ``model/output/weight``."""
    *path, leaf = name.strip("/").split("/")
    return "/".join(path + [{"W": "weight", "b": "bias"}[leaf]])


def _params(link: kusari.Link, fixture: dict, prefix: str) -> list:
    """``(parameter, PFRL's array)`` pairs; the two sides must name the same parameters."""
    expected = {k[len(prefix) + 1:]: v for k, v in fixture.items() if k.startswith(prefix + "/")}
    params = {_torch_name(name): p for name, p in link.namedparams()}
    assert sorted(params) == sorted(expected), f"{prefix}: kusari {sorted(params)} vs PFRL {sorted(expected)}"
    return [(name, params[name], expected[name]) for name in sorted(params)]


def load_params(link: kusari.Link, fixture: dict, prefix: str) -> None:
    for _, param, value in _params(link, fixture, prefix):
        assert param.array.shape == value.shape and value.dtype == param.array.dtype == numpy.float32
        param.array[...] = value


def assert_params(link: kusari.Link, fixture: dict, prefix: str) -> None:
    for name, param, value in _params(link, fixture, prefix):
        numpy.testing.assert_allclose(param.array, value, rtol=RTOL, atol=ATOL, err_msg=f"{prefix}/{name}")


def assert_statistics(agent, fixture: dict, names) -> None:
    stats = dict(agent.get_statistics())
    for name in names:
        numpy.testing.assert_allclose(stats[name], fixture[name], rtol=RTOL, atol=ATOL, err_msg=name)


def experiences(fixture: dict, discrete: bool) -> list:
    """The fixture's flat transitions as the n-step experiences (lists of dicts) PFRL was given."""
    result, k = [], 0
    for n in fixture["exp_len"]:
        result.append([{
            "state": fixture["state"][k + i],
            "action": int(fixture["action"][k + i]) if discrete else fixture["action"][k + i],
            "reward": float(fixture["reward"][k + i]), "next_state": fixture["next_state"][k + i],
            "next_action": None, "is_state_terminal": bool(fixture["is_state_terminal"][k + i]),
        } for i in range(n)])
        k += n
    return result


def sgd(link: kusari.Link, fixture: dict | None = None) -> kusari.Optimizer:
    return optimizers.SGD(lr=0.1).setup(link)


def adam_as_torch(link: kusari.Link, fixture: dict) -> kusari.Optimizer:
    """kusari's Adam (Chainer's) adds eps to ``sqrt(v)`` and puts the bias correction in the step
    size; torch adds eps to ``sqrt(v / (1 - beta2**t))``. At the first step, ``eps * sqrt(1 - beta2)``
    makes them one (with the same eps, elements of small gradient differ by ~6e-5 relative here)."""
    beta2 = float(fixture["adam_beta2"])
    return optimizers.Adam(alpha=float(fixture["adam_lr"]), beta2=beta2,
                           eps=float(fixture["adam_eps"]) * math.sqrt(1 - beta2)).setup(link)


def test_nstep_replay_buffer_batches_like_pfrl():
    fx = load_fixture("nstep")
    buffer = replay_buffers.ReplayBuffer(num_steps=int(fx["num_steps"]))
    for e, (env_id, kind) in enumerate(zip(fx["event_env"].tolist(), fx["event_kind"].tolist())):
        if kind == 2:
            buffer.stop_current_episode(env_id=env_id)
        else:
            buffer.append(fx["state"][e], int(fx["action"][e]), float(fx["reward"][e]),
                          fx["next_state"][e], is_state_terminal=kind == 1, env_id=env_id, event=e)
    stored = [buffer.memory[i] for i in range(len(buffer))]
    numpy.testing.assert_array_equal([exp[0]["event"] for exp in stored], fx["exp_first"])
    numpy.testing.assert_array_equal([len(exp) for exp in stored], fx["exp_len"])
    batch = batch_experiences(stored, None, lambda x: x, float(fx["gamma"]))
    for key in ("state", "action", "reward", "next_state", "is_state_terminal", "discount"):
        numpy.testing.assert_allclose(batch[key], fx["batch/" + key], rtol=RTOL, atol=ATOL, err_msg=key)
        assert batch[key].dtype == fx["batch/" + key].dtype, key


@pytest.mark.parametrize("name, agent_class, make_optimizer", [
    ("dqn", DQN, sgd),
    ("double_dqn", DoubleDQN, sgd),
    ("dqn_adam", DQN, adam_as_torch),
])
def test_dqn_update_matches_pfrl(name, agent_class, make_optimizer):
    fx = load_fixture(name)
    assert fx["grad_norm"] > fx["max_grad_norm"]  # the fixture exercises the clipping
    q = q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1)
    load_params(q, fx, "init")
    batch_size = len(fx["exp_len"])
    agent = agent_class(q, make_optimizer(q, fx), replay_buffers.ReplayBuffer(100), float(fx["gamma"]),
                        explorers.Greedy(), replay_start_size=batch_size, minibatch_size=batch_size,
                        target_update_interval=100, clip_delta=True, batch_accumulator="mean",
                        max_grad_norm=float(fx["max_grad_norm"]))
    load_params(agent.target_model, fx, "init_target")
    agent.update(experiences(fx, discrete=True))
    assert_params(agent.model, fx, "after")
    assert_statistics(agent, fx, ("average_q", "average_loss"))


@pytest.mark.parametrize("name, agent_class", [
    ("categorical_dqn", CategoricalDQN),
    ("categorical_double_dqn", CategoricalDoubleDQN),
])
def test_categorical_dqn_update_matches_pfrl(name, agent_class):
    fx = load_fixture(name)
    assert fx["grad_norm"] > fx["max_grad_norm"]  # the fixture exercises the clipping
    q = q_functions.DistributionalFCStateQFunctionWithDiscreteAction(
        OBS, 2, int(fx["n_atoms"]), float(fx["v_min"]), float(fx["v_max"]), HIDDEN, 1)
    load_params(q, fx, "init")
    batch_size = len(fx["exp_len"])
    agent = agent_class(q, sgd(q), replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.Greedy(),
                        replay_start_size=batch_size, minibatch_size=batch_size, target_update_interval=100,
                        batch_accumulator="mean", max_grad_norm=float(fx["max_grad_norm"]))
    load_params(agent.target_model, fx, "init_target")
    exp_batch = batch_experiences(experiences(fx, discrete=True), None, agent.phi, agent.gamma)
    numpy.testing.assert_allclose(agent._target_distribution(exp_batch), fx["target_dist"], rtol=RTOL, atol=ATOL)
    agent.update(experiences(fx, discrete=True))
    assert_params(agent.model, fx, "after")
    assert_statistics(agent, fx, ("average_q", "average_loss"))


def test_iqn_updates_match_pfrl():
    fx = load_fixture("iqn")
    q = ImplicitQuantileQFunction(psi=kusari.Sequential(kusari.links.Linear(OBS, HIDDEN), F.relu),
                                  phi=kusari.Sequential(CosineBasisLinear(int(fx["n_basis"]), HIDDEN), F.relu),
                                  f=kusari.links.Linear(HIDDEN, 2))
    load_params(q, fx, "init")
    batch_size = len(fx["exp_len"])
    agent = IQN(q, sgd(q), replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.Greedy(),
                replay_start_size=batch_size, minibatch_size=batch_size, target_update_interval=100,
                batch_accumulator="mean", quantile_thresholds_N=int(fx["n"]),
                quantile_thresholds_N_prime=int(fx["n_prime"]), quantile_thresholds_K=int(fx["k"]))
    load_params(agent.target_model, fx, "init_target")
    # PFRL's levels, in the order it drew them: each update's prediction, greedy and target levels
    draws = [fx[key][u] for u in range(len(fx["taus"])) for key in ("taus", "taus_tilde", "taus_prime")]
    agent._sample_taus = lambda batch_size, n: draws.pop(0)
    for _ in range(len(fx["taus"])):
        agent.update(experiences(fx, discrete=True))
    assert not draws
    assert_params(agent.model, fx, "after")
    assert_statistics(agent, fx, ("average_q", "average_loss"))


def test_ppo_gae_and_update_match_pfrl():
    fx = load_fixture("ppo")
    steps, n_envs = fx["actions"].shape
    model = nn.Branched(
        kusari.Sequential(nn.MLP(OBS, 2, [HIDDEN], nonlinearity=F.tanh), policies.SoftmaxCategoricalHead()),
        nn.MLP(OBS, 1, [HIDDEN], nonlinearity=F.tanh))
    load_params(model, fx, "init")
    agent = PPO(model, sgd(model), gamma=float(fx["gamma"]), lambd=float(fx["lambd"]),
                update_interval=steps * n_envs, minibatch_size=steps * n_envs, epochs=1,
                standardize_advantages=True)
    captured = {}
    make_dataset = agent._dataset

    def capture(last_next_x):
        captured["dataset"] = make_dataset(last_next_x)
        return captured["dataset"]

    agent._dataset = capture
    for t in range(steps):
        agent.batch_act(fx["obs"][t])
        # PFRL was given fixed actions in place of its samples; so is kusari
        x, sampled = agent._pending
        agent._pending = (x, fx["actions"][t].astype(sampled.dtype))
        agent.batch_observe(fx["next_obs"][t], fx["rewards"][t], fx["terminated"][t], fx["truncated"][t])
    assert agent.n_updates == 1
    advantages, value_targets = captured["dataset"][4:]
    # kusari flattens the rollout time-major: row t * n_envs + i
    numpy.testing.assert_allclose(advantages.reshape(steps, n_envs), fx["adv"], rtol=RTOL, atol=ATOL)
    numpy.testing.assert_allclose(value_targets.reshape(steps, n_envs), fx["v_teacher"], rtol=RTOL, atol=ATOL)
    assert_params(model, fx, "after")
    assert_statistics(agent, fx, ("average_value_loss", "average_policy_loss", "explained_variance"))


def run_ppo_with_obs_normalizer(fx: dict, learn_observations=None):
    """kusari's PPO on the ``ppo_obs_normalizer`` fixture's rollouts; yields after each update the
    agent, the update's index and its (advantages, value targets) as (steps, n_envs) arrays.
    ``learn_observations`` replaces the agent's normalizer step (to show the fixture tells it)."""
    n_updates, steps, n_envs = fx["adv"].shape
    model = nn.Branched(
        kusari.Sequential(nn.MLP(OBS, 2, [HIDDEN], nonlinearity=F.tanh), policies.SoftmaxCategoricalHead()),
        nn.MLP(OBS, 1, [HIDDEN], nonlinearity=F.tanh))
    load_params(model, fx, "init")
    normalizer = nn.EmpiricalNormalization(OBS, clip_threshold=float(fx["clip_threshold"]))
    agent = PPO(model, sgd(model), normalizer, gamma=float(fx["gamma"]), lambd=float(fx["lambd"]),
                update_interval=steps * n_envs, minibatch_size=steps * n_envs, epochs=2,
                standardize_advantages=True)
    if learn_observations is not None:
        agent._learn_observations = lambda x: learn_observations(agent, x)
    datasets = []
    make_dataset = agent._dataset
    agent._dataset = lambda last_next_x: datasets.append(make_dataset(last_next_x)) or datasets[-1]
    for t in range(steps * n_updates):
        agent.batch_act(fx["obs"][t])
        x, sampled = agent._pending  # PFRL was given fixed actions in place of its samples
        agent._pending = (x, fx["actions"][t].astype(sampled.dtype))
        agent.batch_observe(fx["next_obs"][t], fx["rewards"][t], fx["terminated"][t], fx["truncated"][t])
        if (t + 1) % steps == 0:
            advantages, value_targets = datasets[-1][4:]
            yield agent, t // steps, advantages.reshape(steps, n_envs), value_targets.reshape(steps, n_envs)


def test_ppo_obs_normalizer_matches_pfrl():
    """The normalizer learns from each whole rollout once, after its values and before the epochs;
    acting and the rollout's evaluation use it without learning (two iterations, clipping at 3)."""
    fx = load_fixture("ppo_obs_normalizer")
    for agent, k, advantages, value_targets in run_ppo_with_obs_normalizer(fx):
        where = f"after update {k}"
        numpy.testing.assert_allclose(advantages, fx["adv"][k], rtol=RTOL, atol=ATOL, err_msg=where)
        numpy.testing.assert_allclose(value_targets, fx["v_teacher"][k], rtol=RTOL, atol=ATOL, err_msg=where)
        norm = agent.obs_normalizer
        assert norm.count == fx["norm_count"][k]
        numpy.testing.assert_allclose(norm.mean, fx["norm_mean"][k], rtol=RTOL, atol=ATOL, err_msg=where)
        numpy.testing.assert_allclose(norm._var[0], fx["norm_var"][k], rtol=RTOL, atol=ATOL, err_msg=where)
        try:
            assert_params(agent.model, {key: v[k] for key, v in fx.items() if key.startswith("after/")}, "after")
        except AssertionError as e:
            raise AssertionError(f"{where}: {e}") from None
    assert agent.n_updates == 4
    assert_statistics(agent, fx, ("average_value_loss", "average_policy_loss", "explained_variance"))
    # the fixture tells PFRL's order: training on the statistics before the rollout's ends elsewhere

    def learn_after(agent, x):
        normalized = agent._normalized(x)
        agent.obs_normalizer.experience(x)
        return normalized
    *_, (other, *_) = run_ppo_with_obs_normalizer(fx, learn_after)
    last = {key: value[-1] for key, value in fx.items() if key.startswith("after/")}
    assert max(numpy.abs(param.array - value).max() for _, param, value in _params(other.model, last, "after")) > 1e-3


def deterministic_policy() -> kusari.Link:
    return kusari.Sequential(nn.MLP(OBS, 1, [HIDDEN]), F.tanh, policies.DeterministicHead())


def critic() -> kusari.Link:
    return kusari.Sequential(nn.ConcatObsAndAction(), nn.MLP(OBS + 1, 1, [HIDDEN]))


def test_ddpg_update_matches_pfrl():
    fx = load_fixture("ddpg")
    policy, q_func = deterministic_policy(), critic()
    load_params(policy, fx, "init/policy")
    load_params(q_func, fx, "init/q_func")
    batch_size = len(fx["exp_len"])
    agent = DDPG(policy, q_func, sgd(policy), sgd(q_func), replay_buffers.ReplayBuffer(100),
                 float(fx["gamma"]), explorers.AdditiveGaussian(0.1), replay_start_size=batch_size,
                 minibatch_size=batch_size, target_update_interval=100)
    load_params(agent.target_policy, fx, "init_target/policy")
    load_params(agent.target_q_function, fx, "init_target/q_func")
    agent.update(experiences(fx, discrete=False))
    assert_params(policy, fx, "after/policy")
    assert_params(q_func, fx, "after/q_func")
    assert_statistics(agent, fx, ("average_q", "average_actor_loss", "average_critic_loss"))


def test_td3_update_matches_pfrl():
    fx = load_fixture("td3")
    nets = {"policy": deterministic_policy(), "q_func1": critic(), "q_func2": critic()}
    for name, net in nets.items():
        load_params(net, fx, f"init/{name}")
    shift = float(fx["smoothing_shift"])
    batch_size = len(fx["exp_len"])
    agent = TD3(nets["policy"], nets["q_func1"], nets["q_func2"], *(sgd(net) for net in nets.values()),
                replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.AdditiveGaussian(0.1),
                replay_start_size=batch_size, minibatch_size=batch_size,
                soft_update_tau=float(fx["soft_update_tau"]), max_grad_norm=float(fx["max_grad_norm"]),
                policy_update_delay=1, target_policy_smoothing_func=lambda a: numpy.clip(a + shift, -1, 1))
    targets = {"policy": agent.target_policy, "q_func1": agent.target_q_func1, "q_func2": agent.target_q_func2}
    for name, target in targets.items():
        load_params(target, fx, f"init_target/{name}")
    agent.update(experiences(fx, discrete=False))
    for name, net in nets.items():
        assert_params(net, fx, f"after/{name}")
        assert_params(targets[name], fx, f"after_target/{name}")
    assert_statistics(agent, fx, ("average_q1", "average_q2", "average_q_func1_loss", "average_q_func2_loss",
                                  "average_policy_loss"))


# -- many updates: SAC, TD3 and DDPG follow PFRL over 100 Adam updates ----------------------------
def torch_adam(link: kusari.Link, fixture: dict) -> kusari.Optimizer:
    """kusari's Adam stepping exactly as torch's: torch adds eps to ``sqrt(v / (1 - beta2**t))``,
    which is kusari's step with ``eps * sqrt(1 - beta2**t)`` added to ``sqrt(v)``; a hook sets
    that eps before each step (:func:`adam_as_torch` does it for the first step only)."""
    optimizer = optimizers.Adam(alpha=float(fixture["lr"])).setup(link)
    add_torch_eps(optimizer, float(fixture["adam_eps"]))
    return optimizer


def add_torch_eps(optimizer: kusari.Optimizer, eps: float) -> None:
    def torch_eps(opt):
        opt.hyperparam.eps = eps * math.sqrt(1 - opt.hyperparam.beta2 ** (opt.t + 1))
    optimizer.add_hook(torch_eps, name="torch_eps", timing="pre")


def feed_draws(monkeypatch, draws: numpy.ndarray) -> None:
    """Make NumPy's global standard normal hand out ``draws`` (n, *shape) in order, then refuse."""
    queue = list(draws)

    def standard_normal(size=None):
        assert queue, "the update drew more standard normals than PFRL did"
        z = queue.pop(0)
        assert tuple(numpy.atleast_1d(size)) == z.shape, (size, z.shape)
        return z.astype(numpy.float64)
    monkeypatch.setattr(numpy.random, "standard_normal", standard_normal)


def minibatches(fixture: dict) -> list:
    """The fixture's minibatches: for each update, the one-step experiences ``pool[rows[k]]``."""
    return [[[{"state": fixture["state"][i], "action": fixture["action"][i],
               "reward": float(fixture["reward"][i]), "next_state": fixture["next_state"][i],
               "next_action": None, "is_state_terminal": bool(fixture["is_state_terminal"][i])}]
             for i in rows] for rows in fixture["rows"]]


def assert_params_after(links: dict, fixture: dict, k: int) -> None:
    """Every network's parameters against PFRL's after update ``k``."""
    for name, link in links.items():
        prefix = f"after/{name}"
        at_k = {key: value[k] for key, value in fixture.items() if key.startswith(prefix + "/")}
        try:
            assert_params(link, at_k, prefix)
        except AssertionError as e:
            raise AssertionError(f"after update {k}: {e}") from None


def assert_close_after(value, expected, name: str, k: int, atol: float = ATOL) -> None:
    numpy.testing.assert_allclose(value, expected, rtol=RTOL, atol=atol,
                                  err_msg=f"{name} after update {k}")


def squashed_gaussian_policy() -> kusari.Link:
    return kusari.Sequential(nn.MLP(OBS, 2, [HIDDEN]), policies.SquashedDiagonalGaussianHead())


def test_sac_follows_pfrl_over_many_updates(monkeypatch):
    fx = load_fixture("sac_updates")
    nets = {"policy": squashed_gaussian_policy(), "q_func1": critic(), "q_func2": critic()}
    for name, net in nets.items():
        load_params(net, fx, f"init/{name}")
    batch_size = fx["rows"].shape[1]
    agent = SoftActorCritic(
        *nets.values(), *(torch_adam(net, fx) for net in nets.values()),
        replay_buffers.ReplayBuffer(100), float(fx["gamma"]), replay_start_size=batch_size,
        minibatch_size=batch_size, soft_update_tau=float(fx["soft_update_tau"]),
        initial_temperature=float(fx["initial_temperature"]), entropy_target=float(fx["entropy_target"]),
        temperature_optimizer_lr=float(fx["lr"]))
    add_torch_eps(agent.temperature_optimizer, float(fx["adam_eps"]))
    nets.update(target_q_func1=agent.target_q_func1, target_q_func2=agent.target_q_func2)
    feed_draws(monkeypatch, fx["noise"].reshape(-1, batch_size, 1))
    for k, experiences in enumerate(minibatches(fx)):
        agent.update(experiences)
        stats = dict(agent.get_statistics())
        assert_close_after(stats["temperature"], fx["temperature"][k], "temperature", k)
        assert_close_after(agent.q_func1_loss_record[-1], fx["q_func1_loss"][k], "q_func1_loss", k)
        assert_close_after(agent.q_func2_loss_record[-1], fx["q_func2_loss"][k], "q_func2_loss", k)
        log_prob = -numpy.asarray(list(agent.entropy_record)[-batch_size:])
        # a log-density is a difference of terms of order 1 (the Gaussian's and the tanh's), so its
        # float32 error is absolute: up to 6e-7 here, at a log-density of -0.0102
        assert_close_after(log_prob, fx["log_prob"][k], "log_prob", k, atol=5e-6)
        assert_params_after(nets, fx, k)
    assert agent.n_policy_updates == len(fx["rows"])


def test_td3_follows_pfrl_over_many_updates(monkeypatch):
    fx = load_fixture("td3_updates")
    nets = {"policy": deterministic_policy(), "q_func1": critic(), "q_func2": critic()}
    for name, net in nets.items():
        load_params(net, fx, f"init/{name}")
    batch_size = fx["rows"].shape[1]
    # TD3's default target policy smoothing, on PFRL's draws
    agent = TD3(*nets.values(), *(torch_adam(net, fx) for net in nets.values()),
                replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.AdditiveGaussian(0.1),
                replay_start_size=batch_size, minibatch_size=batch_size,
                soft_update_tau=float(fx["soft_update_tau"]),
                policy_update_delay=int(fx["policy_update_delay"]))
    nets.update(target_policy=agent.target_policy, target_q_func1=agent.target_q_func1,
                target_q_func2=agent.target_q_func2)
    feed_draws(monkeypatch, fx["noise"])
    for k, experiences in enumerate(minibatches(fx)):
        agent.update(experiences)
        assert agent.policy_n_updates == fx["policy_n_updates"][k]
        assert_close_after(agent.q_func1_loss_record[-1], fx["q_func1_loss"][k], "q_func1_loss", k)
        assert_close_after(agent.q_func2_loss_record[-1], fx["q_func2_loss"][k], "q_func2_loss", k)
        if agent.policy_n_updates:
            assert_close_after(agent.policy_loss_record[-1], fx["policy_loss"][k], "policy_loss", k)
        assert_params_after(nets, fx, k)


def test_ddpg_follows_pfrl_over_many_updates():
    fx = load_fixture("ddpg_updates")
    nets = {"policy": deterministic_policy(), "q_func": critic()}
    for name, net in nets.items():
        load_params(net, fx, f"init/{name}")
    batch_size = fx["rows"].shape[1]
    agent = DDPG(*nets.values(), *(torch_adam(net, fx) for net in nets.values()),
                 replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.AdditiveGaussian(0.1),
                 replay_start_size=batch_size, minibatch_size=batch_size, target_update_method="soft",
                 soft_update_tau=float(fx["soft_update_tau"]), target_update_interval=1)
    nets.update(target_policy=agent.target_policy, target_q_func=agent.target_q_function)
    for k, experiences in enumerate(minibatches(fx)):
        agent.update(experiences)
        agent.sync_target_network()  # what observe does at every step with target_update_interval=1
        assert_close_after(agent.critic_loss_record[-1], fx["critic_loss"][k], "critic_loss", k)
        assert_close_after(agent.actor_loss_record[-1], fx["actor_loss"][k], "actor_loss", k)
        assert_params_after(nets, fx, k)


@pytest.mark.parametrize("name, agent_class, hyperparameters", [
    ("al", AL, ("alpha",)),
    ("pal", PAL, ("alpha",)),
    ("double_pal", DoublePAL, ("alpha",)),
    ("dpp", DPP, ("eta",)),
    ("dppl", DPPL, ("eta",)),
    ("dpp_greedy", DPPGreedy, ()),
])
def test_dqn_variant_updates_match_pfrl(name, agent_class, hyperparameters):
    fx = load_fixture(name)
    batch_size, n_updates = 6, int(fx["n_updates"])

    def run(cls, **kwargs):
        q = q_functions.FCStateQFunctionWithDiscreteAction(OBS, 2, HIDDEN, 1)
        load_params(q, fx, "init")
        agent = cls(q, sgd(q), replay_buffers.ReplayBuffer(100), float(fx["gamma"]), explorers.Greedy(),
                    replay_start_size=batch_size, minibatch_size=batch_size, target_update_interval=100,
                    clip_delta=True, batch_accumulator="mean", **kwargs)
        load_params(agent.target_model, fx, "init_target")
        exps = experiences(fx, discrete=True)
        for k in range(n_updates):
            agent.update(exps[k * batch_size:(k + 1) * batch_size])
            yield agent, k

    for agent, k in run(agent_class, **{h: float(fx[h]) for h in hyperparameters}):
        at_k = {key: value[k] for key, value in fx.items() if key.startswith("after/")}
        try:
            assert_params(agent.model, at_k, "after")
        except AssertionError as e:
            raise AssertionError(f"after update {k}: {e}") from None
    assert_statistics(agent, fx, ("average_q", "average_loss"))
    # the fixture tells the variant from DQN: DQN's parameters end elsewhere
    *_, (dqn, _) = run(DQN)
    last = {key: value[-1] for key, value in fx.items() if key.startswith("after/")}
    assert max(numpy.abs(param.array - value).max() for _, param, value in _params(dqn.model, last, "after")) > 1e-3
