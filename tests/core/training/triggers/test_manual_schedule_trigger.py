import pytest

from kusari.training.triggers import ManualScheduleTrigger


def test_iteration_points(fake_trainer):
    trigger = ManualScheduleTrigger([2, 5], "iteration")
    fired, finished = [], []
    for _ in range(7):
        fake_trainer.step()
        fired.append(trigger(fake_trainer))
        finished.append(trigger.finished)
    assert fired == [False, True, False, False, True, False, False]
    assert finished == [False] * 4 + [True] * 3


def test_epoch_points_and_scalar(fake_trainer):
    trigger = ManualScheduleTrigger(1.5, "epoch")  # iteration 6 with 4 per epoch
    fired = []
    for _ in range(8):
        fake_trainer.step()
        fired.append(trigger(fake_trainer))
    assert [i + 1 for i, f in enumerate(fired) if f] == [6]


def test_serialize(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer()
    trigger = ManualScheduleTrigger([3, 4], "iteration")
    for _ in range(3):
        trainer.step()
        trigger(trainer)
    resumed = store_roundtrip(trigger, ManualScheduleTrigger([3, 4], "iteration"))
    trainer.step()
    assert resumed(trainer)
    assert resumed.finished


def test_invalid():
    with pytest.raises(ValueError, match="ManualScheduleTrigger: points"):
        ManualScheduleTrigger([], "epoch")
    with pytest.raises(ValueError, match="ManualScheduleTrigger: unit"):
        ManualScheduleTrigger([1], "step")
