"""Rainbow as PFRL 0.4.0's Atari example assembles it, against PFRL: three CategoricalDoubleDQN
updates with importance weights of a DistributionalDuelingDQN made noisy by to_factorized_noisy,
on uint8 frames through the example's phi, fed the noise PFRL drew.

fixtures/pfrl/rainbow.npz was written by PFRL (tools/make_pfrl_fixture.py --cases rainbow). The
network's 26 MB of initial parameters are not stored: both sides draw them with
``rainbow_params`` from seed 54. Of each parameter larger than 4096 values the fixture keeps the
values after the updates at 4096 seeded positions.
"""
import importlib.util
import math
import pathlib

import numpy

from kusari import optimizers
from kusari.rl import explorers, nn, replay_buffers
from kusari.rl.agents.categorical_dqn import CategoricalDoubleDQN
from kusari.rl.q_functions import DistributionalDuelingDQN

# the helpers of the other PFRL parity tests (tests are not on sys.path under importlib mode)
_spec = importlib.util.spec_from_file_location(
    "rl_test_pfrl_parity", pathlib.Path(__file__).with_name("test_pfrl_parity.py"))
parity = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(parity)

RTOL, ATOL = 1e-5, 1e-6


def rainbow_params(named_shapes, rng):
    """tools/make_pfrl_fixture.py's draws: by name, ``U(-1, 1)`` (noise amplitudes ``sigma``:
    ``U(0, 1)``) times ``1/sqrt(fan_in)`` for weights, 0.1 for biases."""
    result = {}
    for name, shape in sorted(named_shapes):
        scale = 1 / math.sqrt(math.prod(shape[1:])) if len(shape) > 1 else 0.1
        low = 0.0 if "sigma" in name else -1.0
        result[name] = (rng.uniform(low, 1, shape) * scale).astype(numpy.float32)
    return result


def recorded_noise(monkeypatch, fx):
    """numpy.random.standard_normal hands out PFRL's draws in order; returns the list it pops."""
    draws = numpy.split(fx["noise"], numpy.cumsum(fx["noise_sizes"])[:-1])

    def standard_normal(size):
        draw = draws.pop(0)
        assert draw.shape == (size,), f"kusari drew {size} values where PFRL drew {draw.shape[0]}"
        return draw
    monkeypatch.setattr(numpy.random, "standard_normal", standard_normal)
    return draws


def test_rainbow_updates_match_pfrl(monkeypatch):
    fx = parity.load_fixture("rainbow")
    q = DistributionalDuelingDQN(2, int(fx["n_atoms"]), float(fx["v_min"]), float(fx["v_max"]),
                                 n_input_channels=1)
    nn.to_factorized_noisy(q, sigma_scale=float(fx["sigma_scale"]))
    params = {parity._torch_name(name): p for name, p in q.namedparams()}
    # PFRL's initial noise amplitudes are kusari's
    sigmas = {name: p for name, p in params.items() if "sigma" in name}
    assert sorted(sigmas) == sorted(k[len("sigma_init/"):] for k in fx if k.startswith("sigma_init/"))
    for name, p in sigmas.items():
        numpy.testing.assert_array_equal(p.array, fx["sigma_init/" + name], err_msg=name)

    buffer = replay_buffers.PrioritizedReplayBuffer(100)
    errors = []
    buffer.update_errors = lambda e: errors.append(list(e))
    batch_size = len(fx["exp_len"])
    agent = CategoricalDoubleDQN(q, optimizers.SGD(lr=0.1).setup(q), buffer, float(fx["gamma"]),
                                 explorers.Greedy(), replay_start_size=batch_size,
                                 minibatch_size=batch_size, target_update_interval=100,
                                 batch_accumulator="mean",
                                 phi=lambda x: numpy.asarray(x, dtype=numpy.float32) / 255)
    rng = numpy.random.RandomState(54)
    shapes = [(name, p.shape) for name, p in params.items()]
    init, init_target = rainbow_params(shapes, rng), rainbow_params(shapes, rng)
    target_params = {parity._torch_name(name): p for name, p in agent.target_model.namedparams()}
    for name in params:
        params[name].array[...] = init[name]
        target_params[name].array[...] = init_target[name]

    draws = recorded_noise(monkeypatch, fx)
    for _ in range(int(fx["n_updates"])):
        experiences = parity.experiences(fx, discrete=True)
        for exp, w in zip(experiences, fx["weight"]):
            exp[0]["weight"] = float(w)
        agent.update(experiences)
    assert not draws   # as many forwards of as many noisy layers as PFRL's
    numpy.testing.assert_allclose(errors, fx["errors"], rtol=RTOL, atol=ATOL)
    parity.assert_statistics(agent, fx, ("average_q", "average_loss"))
    assert sorted(params) == sorted(k[len("after/"):] for k in fx if k.startswith("after/"))
    for name, p in params.items():
        index = fx.get("after_index/" + name)
        after = p.array.ravel() if index is None else p.array.ravel()[index]
        before = init[name].ravel() if index is None else init[name].ravel()[index]
        numpy.testing.assert_allclose(after, fx["after/" + name], rtol=RTOL, atol=ATOL, err_msg=name)
        # every parameter moved far beyond the tolerance (by 3.7e-4 to 0.038 in PFRL's run)
        assert numpy.abs(after - before).max() > 100 * ATOL, name

