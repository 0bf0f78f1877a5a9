"""Recurrent DQN against PFRL 0.4.0 (fixture by tools/make_pfrl_fixture.py --cases recurrent_dqn).

PFRL's ``RecurrentSequential(Linear, ReLU, LSTM, Linear, DiscreteActionValueHead)`` is kusari's with
``NStepLSTM`` for ``torch.nn.LSTM``: torch's ``weight_ih_l0`` (4H, I) stacks the input, forget,
candidate and output gates, which are ``NStepLSTM``'s ``w0..w3`` (``weight_hh_l0``: ``w4..w7``,
biases alike). kusari's Sequential numbers only its Links, so torch's layers 0, 2, 3 are kusari's
0, 1, 2.
"""
import pathlib

import kusari.functions as F
import kusari.links as L
import numpy
import pytest
from kusari import optimizers
from kusari.rl import explorers
from kusari.rl.agents.dqn import DQN
from kusari.rl.nn import RecurrentSequential
from kusari.rl.q_functions import DiscreteActionValueHead
from kusari.rl.replay_buffers import EpisodicReplayBuffer

FIXTURE = pathlib.Path(__file__).parent / "fixtures" / "pfrl" / "recurrent_dqn.npz"
OBS, HIDDEN = 3, 8


def torch_arrays(fixture: dict, prefix: str) -> dict:
    """kusari parameter name -> PFRL's array, for the parameters under ``prefix``."""
    def get(name):
        return fixture[f"{prefix}/{name}"]
    arrays = {"/0/W": get("0/weight"), "/0/b": get("0/bias"),
              "/2/W": get("3/weight"), "/2/b": get("3/bias")}
    for kind, offset in (("ih", 0), ("hh", 4)):
        weights = numpy.split(get(f"2/weight_{kind}_l0"), 4, axis=-2)
        biases = numpy.split(get(f"2/bias_{kind}_l0"), 4, axis=-1)
        for gate in range(4):
            arrays[f"/1/0/w{offset + gate}"] = weights[gate]
            arrays[f"/1/0/b{offset + gate}"] = biases[gate]
    return arrays


def load(link, arrays: dict) -> None:
    params = dict(link.namedparams())
    assert sorted(params) == sorted(arrays)
    for name, param in params.items():
        assert param.shape == arrays[name].shape, name
        param.array[...] = arrays[name]


def test_recurrent_dqn_matches_pfrl():
    if not FIXTURE.is_file():
        pytest.skip(f"{FIXTURE} is missing; write it with tools/make_pfrl_fixture.py")
    with numpy.load(FIXTURE) as f:
        fixture = dict(f)
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
