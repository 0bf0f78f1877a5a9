"""kusari.rl.utils.async_: parameters and optimizer states in shared memory, seen by forked
processes; run_async's results and errors."""
import os
import signal

import kusari
import numpy as np
import pytest
from kusari import links as L
from kusari import optimizers
from kusari.rl.utils import async_


def linear(dtype=np.float32, seed=0):
    with kusari.using_config("dtype", dtype):
        return L.Linear(3, 2, initialW=np.random.RandomState(seed).randn(2, 3).astype(dtype),
                        initial_bias=np.zeros(2, dtype))


def set_grads(link, scale):
    for i, param in enumerate(link.params()):
        param.grad = np.full(param.shape, scale * (i + 1), param.dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_sharing_keeps_values_shapes_and_dtypes(dtype):
    link = linear(dtype)
    before = {name: p.array.copy() for name, p in link.namedparams()}
    blocks = async_.share_params_as_shared_arrays(link)
    assert set(blocks) == set(before)
    for name, param in link.namedparams():
        assert param.array.dtype == dtype
        np.testing.assert_array_equal(param.array, before[name])


def test_forked_processes_write_into_the_parents_arrays():
    link = linear()
    async_.share_params_as_shared_arrays(link)

    def run(i):
        link.W.array[i] = i + 1  # each process its own row: no race
        return i

    assert async_.run_async(2, run) == [0, 1]
    np.testing.assert_array_equal(link.W.array, [[1, 1, 1], [2, 2, 2]])


def test_without_sharing_the_parent_sees_nothing():
    link = linear()
    w = link.W.array.copy()
    async_.run_async(1, lambda i: link.W.array.fill(7))
    np.testing.assert_array_equal(link.W.array, w)


def test_set_shared_params_attaches_a_second_link():
    a, b = linear(seed=0), linear(seed=1)
    async_.set_shared_params(b, async_.share_params_as_shared_arrays(a))
    np.testing.assert_array_equal(b.W.array, a.W.array)
    a.W.array[0, 0] = 42
    assert b.W.array[0, 0] == 42


def test_set_shared_params_refuses_another_structure():
    blocks = async_.share_params_as_shared_arrays(linear())
    with pytest.raises(ValueError, match="set_shared_params: the shared block for /W has 24 bytes"):
        async_.set_shared_params(L.Linear(4, 2), blocks)
    with pytest.raises(ValueError, match="set_shared_params: the link's parameters"):
        async_.set_shared_params(kusari.Sequential(L.Linear(3, 2)), blocks)


def test_uninitialized_parameters_are_refused():
    with pytest.raises(ValueError, match="share_params_as_shared_arrays: parameter /W is not initialized"):
        async_.share_params_as_shared_arrays(L.Linear(None, 2))


def adam_steps_in_two_processes(share):
    """Process 0 steps Adam once, then process 1 once (in turn, so the arithmetic is exact)."""
    link = linear()
    opt = optimizers.Adam(alpha=0.1).setup(link)
    if share:
        async_.share_params_as_shared_arrays(link)
        async_.share_states_as_shared_arrays(opt)
    turn = async_.fork_context().Event()

    def run(i):
        if i == 1:
            assert turn.wait(30)
        set_grads(link, 1.0 + i)
        opt.update()
        turn.set()

    async_.run_async(2, run)
    return link


def test_adam_states_and_step_counts_are_shared():
    expected = linear()
    opt = optimizers.Adam(alpha=0.1).setup(expected)
    for i in range(2):
        set_grads(expected, 1.0 + i)
        opt.update()
    shared = adam_steps_in_two_processes(share=True)
    for (name, p), q in zip(shared.namedparams(), expected.params()):
        np.testing.assert_allclose(p.array, q.array, rtol=1e-6, err_msg=name)
    # only the first process's step survives without sharing
    assert not np.allclose(adam_steps_in_two_processes(share=False).W.array, expected.W.array)


def test_set_shared_states_attaches_a_second_optimizer():
    a, b = linear(), linear()
    opt_a, opt_b = optimizers.Adam().setup(a), optimizers.Adam().setup(b)
    async_.set_shared_states(opt_b, async_.share_states_as_shared_arrays(opt_a))
    set_grads(a, 1.0)
    opt_a.update()
    np.testing.assert_array_equal(b.W.update_rule.state["m"], a.W.update_rule.state["m"])
    set_grads(b, 1.0)
    opt_b.update()
    assert b.W.update_rule.t == 2 and opt_b.t == 2


def test_states_of_another_optimizer_are_refused():
    blocks = async_.share_states_as_shared_arrays(optimizers.Adam().setup(linear()))
    with pytest.raises(ValueError, match=r"set_shared_states: parameter /W has states \['ms'\]"):
        async_.set_shared_states(optimizers.RMSprop().setup(linear()), blocks)


def test_share_agent_refuses_other_attributes():
    class Agent:
        shared_attributes = ("model", "buffer")
        model = linear()
        buffer = ()

    with pytest.raises(TypeError, match="share_agent: Agent.buffer is a tuple"):
        async_.share_agent(Agent())


def test_run_async_names_a_raising_process_and_stops_the_others():
    stop = async_.fork_context().Event()

    def run(i):
        if i == 1:
            raise ValueError("bad env")
        assert stop.wait(30)  # released by the failure of process 1

    with pytest.raises(RuntimeError, match="run_async: process 1 .* raised ValueError: bad env") as info:
        async_.run_async(2, run, stop_event=stop)
    assert "Traceback" in str(info.value.__cause__)


def test_run_async_names_a_killed_process():
    def run(i):
        if i == 0:
            os.kill(os.getpid(), signal.SIGKILL)
        return i

    with pytest.raises(RuntimeError, match="run_async: process 0 .* died .*killed by signal SIGKILL"):
        async_.run_async(2, run)


def test_shared_blocks_leave_nothing_in_dev_shm():
    before = set(os.listdir("/dev/shm"))
    link = linear()
    async_.share_params_as_shared_arrays(link)
    async_.share_states_as_shared_arrays(optimizers.Adam().setup(link))
    async_.run_async(2, lambda i: None)
    assert set(os.listdir("/dev/shm")) - before == set()
