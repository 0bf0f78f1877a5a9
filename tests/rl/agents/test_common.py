"""kusari.rl.agents._common: the checks and helpers every agent shares."""
import collections
import inspect
import math
import re

import kusari
import kusari.links as L
import kusari.rl.agents
import numpy
import pytest
from kusari import optimizers
from kusari.rl import nn, policies
from kusari.rl.agents import A2C, PPO, REINFORCE
from kusari.rl.agents._common import (
    ObservationCheck,
    check_optimizer,
    check_step,
    concat_batches,
    mean_or_nan,
    place_model,
    require_positive_int,
)


def test_observations_compares_arrays_with_the_first_one():
    check = ObservationCheck("Agent")
    check.observations([numpy.zeros(2, numpy.float32), 3, None])  # non-arrays are left to phi
    check.confirm()
    check.observations([numpy.ones(2, numpy.float32)])
    with pytest.raises(ValueError, match=r"^Agent.batch_observe: observation of shape \(2,\) and dtype "
                                         r"float64, but the first one had shape \(2,\) and dtype float32$"):
        check.observations([numpy.zeros(2)], "batch_observe")
    with pytest.raises(ValueError, match=r"^Agent: observation of shape \(1, 2\)"):
        check.observations([numpy.zeros((1, 2), numpy.float32)])


def test_features_compares_each_example_of_the_model_input():
    check = ObservationCheck("Agent")
    check.features(numpy.zeros((4, 3), numpy.float32))
    check.confirm()
    check.features(numpy.zeros((1, 3), numpy.float32))  # another batch size is fine
    with pytest.raises(ValueError, match=r"^Agent: observation of shape \(2,\) and dtype float32 after phi, "
                                         r"but the first one had shape \(3,\) and dtype float32$"):
        check.features(numpy.zeros((4, 2), numpy.float32))
    structured = ObservationCheck("Agent")
    structured.features((numpy.zeros((2, 3), numpy.float32), {"a": numpy.zeros((2,), numpy.int64)}))
    structured.confirm()
    with pytest.raises(ValueError, match=r"Agent: observation of \(shape, dtype\) .*int32.* after phi"):
        structured.features((numpy.zeros((2, 3), numpy.float32), {"a": numpy.zeros((2,), numpy.int32)}))


def test_an_unconfirmed_call_sets_no_reference():
    """A call the model refused (no confirm) must not hold later, good observations to its shape."""
    check = ObservationCheck("Agent")
    check.observations([numpy.zeros(5, numpy.float32)])   # say, the model raised on it
    check.observations([numpy.zeros(2, numpy.float32)])
    check.confirm()
    with pytest.raises(ValueError, match=r"observation of shape \(5,\) .* first one had shape \(2,\)"):
        check.observations([numpy.zeros(5, numpy.float32)])
    with pytest.raises(ValueError, match=r"observation of shape \(3,\) .* first one had shape \(2,\)"):
        ObservationCheck("Agent").observations([numpy.zeros(2, numpy.float32),
                                                numpy.zeros(3, numpy.float32)])


class _Frames:
    """Stands for stacked frames: not an ndarray, but convertible to one."""

    def __array__(self, dtype=None, copy=None):
        return numpy.zeros((4, 3), numpy.uint8)


def test_observations_converts_objects_with_array():
    check = ObservationCheck("Agent")
    check.observations([_Frames()])
    check.confirm()
    with pytest.raises(ValueError, match=r"shape \(4, 3\) and dtype uint8, but the first one had "
                                         r"shape \(2,\)"):
        check2 = ObservationCheck("Agent")
        check2.observations([numpy.zeros(2, numpy.float32)])
        check2.confirm()
        check2.observations([_Frames()])


@pytest.mark.parametrize("step, message", [
    (([0, 0], [1.0], [False], [False]), r"must have one length, got lengths \(2, 1, 1, 1\)"),
    (([0], ["1"], [False], [False]), r"reward 0 must be a finite real number, got '1'"),
    (([0], [float("nan")], [False], [False]), r"reward 0 must be a finite real number, got nan"),
    (([0], [numpy.ones(2)], [False], [False]), r"reward 0 must be a finite real number"),
    (([0], [1.0], [None], [False]), r"done 0 must be a bool, got None"),
    (([0], [1.0], [False], [2]), r"reset 0 must be a bool, got 2"),
])
def test_check_step_refuses(step, message):
    with pytest.raises(ValueError, match="^Agent.batch_observe: .*" + message):
        check_step("Agent.batch_observe", *step)


def test_check_step_accepts_numpy_scalars_and_counts():
    check_step("Agent", [0, 0], [numpy.float32(1), numpy.array(2.0)], [numpy.bool_(True), 0],
               [False, 1], n=2)
    with pytest.raises(ValueError, match=r"^Agent: .* must have length 3, got lengths \(2, 2, 2, 2\)"):
        check_step("Agent", [0, 0], [1, 1], [False] * 2, [False] * 2, n=3)


def test_check_optimizer():
    link, other = L.Linear(2, 3), L.Linear(2, 3)
    check_optimizer("Agent", "opt", optimizers.SGD().setup(link), link, "model")
    chain = kusari.Sequential(link, other)
    check_optimizer("Agent", "opt", optimizers.SGD().setup(chain), link, "model")  # a link holding it
    with pytest.raises(ValueError, match=r"Agent: opt must be a kusari Optimizer set up on the model "
                                         r"\(call opt.setup\(model\)\), got <"):
        check_optimizer("Agent", "opt", optimizers.SGD(), link, "model")
    with pytest.raises(ValueError, match="Agent: opt must be a kusari Optimizer .* got 'sgd'"):
        check_optimizer("Agent", "opt", "sgd", link, "model")
    with pytest.raises(ValueError, match="Agent: opt is set up on a Linear that does not hold the model's "
                                         "parameters"):
        check_optimizer("Agent", "opt", optimizers.SGD().setup(other), link, "model")


@pytest.mark.parametrize("make", [
    lambda m, opt: PPO(m, opt),
    lambda m, opt: A2C(m, opt, gamma=0.9, num_processes=1),
    lambda m, opt: REINFORCE(m, opt),
])
def test_on_policy_agents_check_their_optimizer(make):
    model = nn.Branched(kusari.Sequential(nn.MLP(2, 2, []), policies.SoftmaxCategoricalHead()),
                        nn.MLP(2, 1, []))
    with pytest.raises(ValueError, match="optimizer is set up on a .* that does not hold the model's"):
        make(model, optimizers.Adam().setup(nn.MLP(2, 1, [])))


@pytest.mark.parametrize("value", [1, 7, numpy.int64(3)])
def test_require_positive_int_accepts(value):
    require_positive_int("Agent", "n", value)


@pytest.mark.parametrize("value", [0, -1, 2.0, True, None, "3"])
def test_require_positive_int_refuses(value):
    with pytest.raises(ValueError, match=rf"^Agent: n must be an int >= 1, got {value!r}$"):
        require_positive_int("Agent", "n", value)


@pytest.mark.parametrize("gpu", [None, -1, "@numpy", kusari.get_device("@numpy")])
def test_place_model_on_the_host(gpu):
    link = L.Linear(2, 3)
    W = link.W.array
    assert place_model(gpu, link) is None
    assert link.W.array is W


@pytest.mark.parametrize("gpu", [True, 1.0, [0]])
def test_place_model_refuses_what_names_no_device(gpu):
    with pytest.raises(TypeError, match=rf"^gpu must be None, a GPU id \(int\), a device name .* got "
                                        rf"{re.escape(repr(gpu))} \({type(gpu).__name__}\)$"):
        place_model(gpu, L.Linear(2, 3))


def test_every_agent_spells_a_device_gpu():
    """One spelling across the agents: PFRL's ``gpu`` argument (default None: the host), never ``device``."""
    agents = [c for c in vars(kusari.rl.agents).values() if isinstance(c, type) and hasattr(c, "act")]
    placed = [c for c in agents if "gpu" in inspect.signature(c).parameters]
    assert len(placed) >= 10
    for agent_class in agents:
        parameters = inspect.signature(agent_class).parameters
        assert "device" not in parameters, agent_class.__name__
        if agent_class in placed:
            assert parameters["gpu"].default is None, agent_class.__name__


def test_concat_batches_of_structures():
    a = (numpy.zeros((1, 2)), {"x": numpy.zeros((1,), numpy.int32)})
    b = (numpy.ones((2, 2)), {"x": numpy.ones((2,), numpy.int32)})
    got = concat_batches([a, b])
    numpy.testing.assert_array_equal(got[0], [[0, 0], [1, 1], [1, 1]])
    numpy.testing.assert_array_equal(got[1]["x"], [0, 1, 1])
    assert got[1]["x"].dtype == numpy.int32


def test_mean_or_nan():
    assert mean_or_nan(collections.deque([1.0, 2.0, 6.0])) == 3.0
    assert type(mean_or_nan([numpy.float32(1)])) is float
    assert math.isnan(mean_or_nan(collections.deque()))
