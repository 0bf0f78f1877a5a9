import pytest

from kusari.training import get_trigger
from kusari.training.triggers import IntervalTrigger


def _fires(trainer, trigger, n):
    out = []
    for _ in range(n):
        trainer.step()
        out.append(trigger(trainer))
    return out


def test_iteration_period(fake_trainer):
    fires = _fires(fake_trainer, IntervalTrigger(3, "iteration"), 10)
    assert [i + 1 for i, f in enumerate(fires) if f] == [3, 6, 9]


def test_epoch_period(fake_trainer):  # 4 iterations per epoch
    fires = _fires(fake_trainer, IntervalTrigger(1, "epoch"), 12)
    assert [i + 1 for i, f in enumerate(fires) if f] == [4, 8, 12]


def test_fractional_epoch(fake_trainer):
    fires = _fires(fake_trainer, IntervalTrigger(0.5, "epoch"), 8)
    assert [i + 1 for i, f in enumerate(fires) if f] == [2, 4, 6, 8]


def test_does_not_fire_before_first_update(fake_trainer):
    assert not IntervalTrigger(2, "iteration")(fake_trainer)
    assert not IntervalTrigger(1, "epoch")(fake_trainer)


def test_fires_when_multiple_crossed_between_calls(fake_trainer):
    trigger = IntervalTrigger(2, "iteration")
    for _ in range(3):
        fake_trainer.step()
    assert trigger(fake_trainer)  # crossed 2 since the last position 0
    fake_trainer.step()
    assert trigger(fake_trainer)  # 4
    fake_trainer.step()
    assert not trigger(fake_trainer)


def test_serialize_resumes_phase(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer()
    trigger = IntervalTrigger(5, "iteration")
    _fires(trainer, trigger, 3)
    for _ in range(3):  # the trigger is not called at iterations 4-6
        trainer.step()
    resumed = store_roundtrip(trigger, IntervalTrigger(5, "iteration"))
    assert resumed(trainer)  # 5 lies in (3, 6]


def test_training_length_and_get_trigger():
    trigger = get_trigger((7, "epoch"))
    assert isinstance(trigger, IntervalTrigger)
    assert trigger.get_training_length() == (7, "epoch")
    assert get_trigger(None)(object()) is False
    f = lambda t: True  # NOQA
    assert get_trigger(f) is f


@pytest.mark.parametrize("args", [(1, "epochs"), (0, "iteration"), (-1, "epoch")])
def test_invalid(args):
    with pytest.raises(ValueError, match="IntervalTrigger"):
        IntervalTrigger(*args)


def test_get_trigger_bad_spec():
    with pytest.raises(TypeError, match="get_trigger"):
        get_trigger((1, "epoch", 2))
