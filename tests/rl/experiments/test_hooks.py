import pytest

from kusari.rl.experiments import LinearInterpolationHook, StepHook


def test_linear_interpolation_hook_moves_from_start_at_step_one_to_stop_at_total_steps():
    values = []
    hook = LinearInterpolationHook(11, 1.0, 0.0, lambda env, agent, value: values.append(value))
    assert isinstance(hook, StepHook)
    for step in (1, 6, 11, 20):
        hook(None, None, step)
    assert values == [1.0, 0.5, 0.0, 0.0]
    assert all(type(v) is float for v in values)


def test_linear_interpolation_hook_sets_a_schedulable_attribute():
    class Optimizer:
        lr = 1e-3

    class Agent:
        optimizer = Optimizer()

    agent = Agent()
    hook = LinearInterpolationHook(5, 1e-3, 0, lambda env, agent, value: setattr(agent.optimizer, "lr", value))
    hook(None, agent, 3)
    assert agent.optimizer.lr == pytest.approx(5e-4)


def test_bad_arguments():
    with pytest.raises(ValueError, match="total_steps must be >= 1, got 0"):
        LinearInterpolationHook(0, 1, 0, print)
    with pytest.raises(TypeError, match="setter must be callable"):
        LinearInterpolationHook(10, 1, 0, None)
