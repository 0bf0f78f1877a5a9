import pytest

from kusari.training.triggers import OnceTrigger, TimeTrigger


def test_once(fake_trainer):
    trigger = OnceTrigger()
    assert not trigger.finished
    assert [trigger(fake_trainer) for _ in range(3)] == [True, False, False]
    assert trigger.finished


@pytest.mark.parametrize("call_on_resume, expected", [(False, False), (True, True)])
def test_once_after_resume(fake_trainer, store_roundtrip, call_on_resume, expected):
    trigger = OnceTrigger()
    trigger(fake_trainer)
    resumed = store_roundtrip(trigger, OnceTrigger(call_on_resume))
    assert resumed(fake_trainer) is expected
    assert resumed(fake_trainer) is False


def test_time_trigger(fake_trainer, store_roundtrip):
    trigger = TimeTrigger(2.5)  # FakeTrainer advances elapsed_time by 1 s per step
    fired = []
    for _ in range(6):
        fake_trainer.step()
        fired.append(trigger(fake_trainer))
    assert [i + 1 for i, f in enumerate(fired) if f] == [3, 5]
    resumed = store_roundtrip(trigger, TimeTrigger(2.5))
    fake_trainer.step()
    fake_trainer.step()
    assert resumed(fake_trainer)  # 8 s >= 7.5 s


def test_time_trigger_invalid():
    with pytest.raises(ValueError, match="TimeTrigger"):
        TimeTrigger(0)
