import pytest

from kusari.training.triggers import EarlyStoppingTrigger


def _epochs_until_stop(trigger, trainer, values, iters_per_epoch=2):
    for epoch, v in enumerate(values, 1):
        for _ in range(iters_per_epoch):
            trainer.step(**{"validation/main/loss": v, "validation/main/accuracy": -v})
            if trigger(trainer):
                return epoch
    return None


def test_stops_after_patience(make_fake_trainer):
    trainer = make_fake_trainer(2)
    trigger = EarlyStoppingTrigger(monitor="validation/main/loss", patience=2)
    # best at epoch 2 (0.5); epochs 3 and 4 do not improve
    assert _epochs_until_stop(trigger, trainer, [1.0, 0.5, 0.6, 0.5, 0.1]) == 4


def test_improvement_resets_count(make_fake_trainer):
    trainer = make_fake_trainer(2)
    trigger = EarlyStoppingTrigger(monitor="validation/main/loss", patience=2)
    assert _epochs_until_stop(trigger, trainer, [1.0, 1.1, 0.9, 1.0, 0.8, 0.7]) is None


def test_auto_mode_maximizes_accuracy(make_fake_trainer):
    trainer = make_fake_trainer(2)
    trigger = EarlyStoppingTrigger(monitor="validation/main/accuracy", patience=1)
    assert trigger.mode == "max"
    # accuracy = -loss: -1.0, -0.5 (better), -0.7 (worse) -> stop at epoch 3
    assert _epochs_until_stop(trigger, trainer, [1.0, 0.5, 0.7]) == 3


def test_max_trigger_stops_and_gives_length(make_fake_trainer):
    trainer = make_fake_trainer(2)
    trigger = EarlyStoppingTrigger(patience=5, max_trigger=(3, "epoch"), monitor="validation/main/loss")
    assert _epochs_until_stop(trigger, trainer, [3.0, 2.0, 1.0, 0.5, 0.1]) == 3
    assert trigger.get_training_length() == (3, "epoch")


def test_chainer_patients_alias():
    assert EarlyStoppingTrigger(patients=7).patience == 7


def test_serialize(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer(2)
    trigger = EarlyStoppingTrigger(monitor="validation/main/loss", patience=2)
    assert _epochs_until_stop(trigger, trainer, [1.0, 1.2]) is None
    resumed = store_roundtrip(trigger, EarlyStoppingTrigger(monitor="validation/main/loss", patience=2))
    assert (resumed.count, resumed._best) == (1, 1.0)
    assert _epochs_until_stop(resumed, trainer, [1.3]) == 1


@pytest.mark.parametrize("kwargs, match", [({"mode": "best"}, "mode"), ({"patience": 0}, "patience"),
                                           ({"patiense": 1}, "unexpected")])
def test_invalid(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        EarlyStoppingTrigger(**kwargs)
