from kusari.training.triggers import MaxValueTrigger, MinValueTrigger


def _run(trigger, trainer, values_per_epoch):
    """Feed one observation per iteration (2 iterations per epoch); return the epochs where it fired."""
    fired = []
    for epoch, values in enumerate(values_per_epoch, 1):
        for v in values:
            trainer.step(**{"val/loss": v})
            if trigger(trainer):
                fired.append(epoch)
    return fired


def test_min_value_uses_interval_mean(make_fake_trainer):
    trainer = make_fake_trainer(2)
    # epoch means: 2.0, 1.5, 3.0, 1.0
    fired = _run(MinValueTrigger("val/loss"), trainer, [(1.0, 3.0), (1.0, 2.0), (3.0, 3.0), (0.5, 1.5)])
    assert fired == [1, 2, 4]


def test_max_value(make_fake_trainer):
    trainer = make_fake_trainer(2)
    fired = _run(MaxValueTrigger("val/loss"), trainer, [(1.0, 1.0), (0.0, 1.0), (2.0, 2.0)])
    assert fired == [1, 3]


def test_missing_key_never_fires(make_fake_trainer):
    trainer = make_fake_trainer(2)
    trigger = MinValueTrigger("absent")
    assert not any(_fired(trigger, trainer) for _ in range(4))


def _fired(trigger, trainer):
    trainer.step(other=1.0)
    return trigger(trainer)


def test_serialize_keeps_best(make_fake_trainer, store_roundtrip):
    trainer = make_fake_trainer(2)
    trigger = MinValueTrigger("val/loss")
    assert _run(trigger, trainer, [(1.0, 1.0), (2.0, 0.0)]) == [1]  # mean 1.0 is not below 1.0
    resumed = store_roundtrip(trigger, MinValueTrigger("val/loss"))
    assert _run(resumed, trainer, [(1.5, 1.5), (0.9, 0.9)]) == [2]
