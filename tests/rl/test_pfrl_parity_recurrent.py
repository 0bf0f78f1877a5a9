"""Recurrent DQN and PPO against PFRL 0.4.0 (fixtures by tools/make_pfrl_fixture.py --cases
recurrent_dqn recurrent_ppo).

PFRL's ``RecurrentSequential(Linear, activation, LSTM, ...)`` is kusari's with ``NStepLSTM`` for
``torch.nn.LSTM``: torch's ``weight_ih_l0`` (4H, I) stacks the input, forget, candidate and output
gates, which are ``NStepLSTM``'s ``w0..w3`` (``weight_hh_l0``: ``w4..w7``, biases alike). kusari's
Sequential numbers only its Links, so torch's layers 0, 2, 3 are kusari's 0, 1, 2.
"""
import importlib.util
import pathlib

import kusari
import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers, policies
from kusari.rl.agents.dqn import DQN
from kusari.rl.agents.ppo import PPO
from kusari.rl.nn import Branched, RecurrentSequential
from kusari.rl.q_functions import DiscreteActionValueHead
from kusari.rl.replay_buffers import EpisodicReplayBuffer

# the fixtures' loader and sizes of the other PFRL parity tests (tests are not on sys.path under
# importlib mode)
_spec = importlib.util.spec_from_file_location(
    "rl_test_pfrl_parity", pathlib.Path(__file__).with_name("test_pfrl_parity.py"))
parity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parity)
load_fixture, OBS, HIDDEN = parity.load_fixture, parity.OBS, parity.HIDDEN
LAYERS = {"0": "0", "2": "1", "3": "2"}  # torch's layer index -> kusari's (Links only)


def torch_arrays(fixture: dict, prefix: str) -> dict:
    """kusari parameter name -> PFRL's array, for the parameters under ``prefix``."""
    arrays = {}
    for key, value in fixture.items():
        if not key.startswith(prefix + "/"):
            continue
        layer, *path, leaf = key[len(prefix) + 1:].split("/")
        name = "/" + "/".join([LAYERS[layer]] + path)
        if leaf.endswith("_l0"):  # the LSTM: four gates each
            kind, offset = leaf.split("_")[:2], 0 if "_ih_" in leaf else 4
            for gate, part in enumerate(numpy.split(value, 4, axis=-2 if kind[0] == "weight" else -1)):
                arrays[f"{name}/0/{'w' if kind[0] == 'weight' else 'b'}{offset + gate}"] = part
        else:
            arrays[f"{name}/{'W' if leaf == 'weight' else 'b'}"] = value
    return arrays


def load(link, arrays: dict) -> None:
    params = dict(link.namedparams())
    assert sorted(params) == sorted(arrays)
    for name, param in params.items():
        assert param.shape == arrays[name].shape, name
        param.array[...] = arrays[name]


def test_recurrent_dqn_matches_pfrl():
    fixture = load_fixture("recurrent_dqn")
    q = RecurrentSequential(L.Linear(OBS, HIDDEN), F.relu, L.NStepLSTM(1, HIDDEN, HIDDEN, 0.0),
                            L.Linear(HIDDEN, 2), DiscreteActionValueHead())
    load(q, torch_arrays(fixture, "init"))
    planned = iter(fixture["actions"].ravel().tolist())
    agent = DQN(q, optimizers.SGD(lr=0.1).setup(q), EpisodicReplayBuffer(1000),
                float(fixture["gamma"]), explorers.ConstantEpsilonGreedy(1.0, lambda: next(planned)),
                replay_start_size=1000, minibatch_size=3, target_update_interval=10000,
                clip_delta=True, batch_accumulator="mean", recurrent=True)
    load(agent.target_model, torch_arrays(fixture, "init_target"))
    obs = fixture["obs"]
    for t in range(len(fixture["actions"])):
        assert list(agent.batch_act(list(obs[t]))) == fixture["actions"][t].tolist()
        agent.batch_observe(list(obs[t + 1]), fixture["reward"][t].tolist(),
                            fixture["done"][t].tolist(), fixture["reset"][t].tolist())

    # the stored episodes, recurrent states included, are PFRL's
    episodes = list(agent.replay_buffer.episodic_memory)
    assert [len(e) for e in episodes] == [3, 3, 7]
    for k, episode in enumerate(episodes):
        for field in ("state", "action", "reward", "next_state", "is_state_terminal"):
            numpy.testing.assert_allclose(numpy.asarray([t[field] for t in episode]),
                                          fixture[f"ep_{k}_{field}"], err_msg=field)
        for key in ("recurrent_state", "next_recurrent_state"):
            for part, index in (("h", 0), ("c", 1)):
                stored = numpy.stack([numpy.zeros((1, HIDDEN), numpy.float32) if t[key] is None
                                      else t[key][0][index] for t in episode])
                numpy.testing.assert_allclose(stored, fixture[f"ep_{k}_{key}_{part}"], rtol=1e-5,
                                              atol=1e-6, err_msg=f"episode {k} {key} {part}")

    # three updates on chosen episodes: parameters and losses
    for u, chosen in enumerate(fixture["update_episodes"]):
        agent.update([episodes[k] for k in chosen if k >= 0])
        after = torch_arrays({k: v[u] for k, v in fixture.items() if k.startswith("after/")},
                             "after")
        for name, param in agent.model.namedparams():
            numpy.testing.assert_allclose(param.array, after[name], rtol=1e-5, atol=1e-6,
                                          err_msg=f"update {u}: {name}")
    numpy.testing.assert_allclose(list(agent.loss_record), fixture["losses"], rtol=1e-5)


@pytest.mark.parametrize("name", ["recurrent_ppo", "recurrent_ppo_cut"])
def test_recurrent_ppo_matches_pfrl(name):
    """GAE from the recurrent values (truncated episodes bootstrapped from the state after their
    last step) and two epochs on the sequences, whole or cut every 2 steps."""
    fx = load_fixture(name)
    steps, n_envs = fx["actions"].shape
    model = RecurrentSequential(
        L.Linear(OBS, HIDDEN), F.tanh, L.NStepLSTM(1, HIDDEN, HIDDEN, 0.0),
        Branched(kusari.Sequential(L.Linear(HIDDEN, 2), policies.SoftmaxCategoricalHead()),
                 L.Linear(HIDDEN, 1)))
    load(model, torch_arrays(fx, "init"))
    max_len = int(fx["max_len"])
    agent = PPO(model, optimizers.SGD(lr=0.1).setup(model), gamma=float(fx["gamma"]),
                lambd=float(fx["lambd"]), update_interval=steps * n_envs,
                minibatch_size=steps * n_envs, epochs=2, standardize_advantages=True,
                recurrent=True, max_recurrent_sequence_len=None if max_len < 0 else max_len)
    captured = {}
    make_dataset = agent._dataset
    agent._dataset = lambda last_next_x: captured.setdefault("dataset", make_dataset(last_next_x))
    for t in range(steps):
        agent.batch_act(fx["obs"][t])
        x, sampled = agent._pending  # PFRL was given fixed actions in place of its samples
        agent._pending = (x, fx["actions"][t].astype(sampled.dtype))
        agent.batch_observe(fx["next_obs"][t], fx["rewards"][t], fx["terminated"][t],
                            fx["truncated"][t])
    assert agent.n_updates == 2
    advantages, value_targets = captured["dataset"][4:]
    numpy.testing.assert_allclose(advantages.reshape(steps, n_envs), fx["adv"], rtol=1e-5,
                                  atol=1e-6)
    numpy.testing.assert_allclose(value_targets.reshape(steps, n_envs), fx["v_teacher"],
                                  rtol=1e-5, atol=1e-6)
    after = torch_arrays(fx, "after")
    for param_name, param in model.namedparams():
        numpy.testing.assert_allclose(param.array, after[param_name], rtol=1e-5, atol=1e-6,
                                      err_msg=param_name)
    stats = dict(agent.get_statistics())
    for key in ("average_value_loss", "average_policy_loss", "explained_variance"):
        numpy.testing.assert_allclose(stats[key], fx[key], rtol=1e-4, atol=1e-6, err_msg=key)
