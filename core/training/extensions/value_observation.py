"""observe_value / observe_lr: report a value computed from the trainer (e.g. the learning rate)."""
from kusari.training import extension


def observe_value(observation_key, target_func):
    """An extension storing ``target_func(trainer)`` as ``trainer.observation[observation_key]``
    (every epoch by default).

    Runs with ``PRIORITY_WRITER``, before the reporting extensions read the observation.
    """

    @extension.make_extension(trigger=(1, "epoch"), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer):
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name="main", observation_key="lr"):
    """An extension reporting the learning rate ``lr`` of the optimizer named ``optimizer_name``."""
    return observe_value(observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr)
